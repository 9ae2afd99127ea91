import { SimpleGrid, Stack } from '@mantine/core';
import { ChangePasswordForm } from '../account/ChangePasswordForm';
import { ConnectedAppsCard } from '../account/ConnectedAppsCard';
import { NamespaceCard } from '../account/NamespaceCard';
import { PlanCard } from '../account/PlanCard';
import { UsageCard } from '../account/UsageCard';
import { Loading, PageTitle } from '../components/ui';
import { useProfile } from '../profile';
import { LoadError } from '../organize/LoadError';

export function AccountPage() {
  const profile = useProfile();
  return (
    <>
      <PageTitle title="Plan & account" description="Your plan and its limits, this month's usage, your namespace, connected applications and your password." />
      {profile.isPending ? (
        <Loading label="Loading your account…" />
      ) : profile.isError ? (
        <LoadError error={profile.error} title="Could not load your account" onRetry={() => void profile.refetch()} />
      ) : (
        <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="md">
          <Stack gap="md">
            <UsageCard profile={profile.data} />
            <PlanCard profile={profile.data} />
          </Stack>
          <Stack gap="md">
            <NamespaceCard profile={profile.data} />
            <ConnectedAppsCard />
            <ChangePasswordForm />
          </Stack>
        </SimpleGrid>
      )}
    </>
  );
}
