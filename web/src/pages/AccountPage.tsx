import { SimpleGrid, Stack } from '@mantine/core';
import { NamespaceSettings } from '../account/NamespaceSettings';
import { PasswordForm } from '../account/PasswordForm';
import { PlanAndUsage } from '../account/PlanAndUsage';
import { ErrorNotice, Loading, PageTitle } from '../components/ui';
import { useProfile } from '../profile';

export function AccountPage() {
  const profile = useProfile();
  return (
    <>
      <PageTitle title="Plan & account" description={profile.data?.email} />
      {profile.isPending ? (
        <Loading />
      ) : profile.isError ? (
        <ErrorNotice error={profile.error} title="Could not load your account" />
      ) : (
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          <PlanAndUsage profile={profile.data} />
          <Stack gap="md">
            <NamespaceSettings />
            <PasswordForm />
          </Stack>
        </SimpleGrid>
      )}
    </>
  );
}
