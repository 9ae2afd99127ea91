import { Alert, Anchor, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { IconLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { AccountsSection } from '../admin/AccountsSection';
import { AuditSection } from '../admin/AuditSection';
import { LinkAbuseSection } from '../admin/LinkAbuseSection';
import { OPERATOR_ONLY } from '../admin/messages';
import { SignUpsSection } from '../admin/SignUpsSection';
import { StatusSection } from '../admin/StatusSection';
import { PageTitle } from '../components/ui';
import { useAccount } from '../session';

const SECTIONS: { id: string; title: string; description: string; body: () => ReactNode }[] = [
  { id: 'accounts', title: 'Accounts', description: 'Find an account by email; change its plan or role, disable it, make a password reset link or delete it.', body: () => <AccountsSection /> },
  { id: 'sign-ups', title: 'Sign-ups', description: 'Who may create an account in the browser, and the plan new accounts get.', body: () => <SignUpsSection /> },
  { id: 'link-abuse', title: 'Link abuse', description: 'Find any link on this server by its short URL and disable it, with a reason its owner sees.', body: () => <LinkAbuseSection /> },
  { id: 'status', title: 'Server status', description: 'This server and what it is waiting to write or send.', body: () => <StatusSection /> },
  { id: 'audit', title: 'Audit log', description: 'Every operator action, in the browser or the command line, with who and when.', body: () => <AuditSection /> },
];

function OperatorOnly() {
  return (
    <Alert color="gray" icon={<IconLock aria-hidden />} title={OPERATOR_ONLY}>
      This page runs the server: its accounts, sign-ups and abuse reports. Your account is not an operator of this Snip server.{' '}
      <Anchor component={Link} to="/links" inherit>
        Back to your links
      </Anchor>
    </Alert>
  );
}

/**
 * The operator's page: one page of headed sections rather than tabs, so every control is reachable by scrolling,
 * by the list of sections and by a screen reader's headings alike.
 */
export function AdminPage() {
  const account = useAccount();
  // The session's role decides what is shown; the API's 403 remains the final word in each section.
  if (account.role !== 'operator') {
    return (
      <>
        <PageTitle title="Admin" />
        <OperatorOnly />
      </>
    );
  }
  return (
    <>
      <PageTitle title="Admin" description="Run this Snip server: its accounts, who may sign up, links reported for abuse, its health and a log of operator actions." />
      <Group component="nav" aria-label="Admin sections" gap="md" mb="lg" wrap="wrap">
        {SECTIONS.map((section) => (
          <Anchor key={section.id} href={`#${section.id}`} size="sm">
            {section.title}
          </Anchor>
        ))}
      </Group>
      <Stack gap="xl">
        {SECTIONS.map((section) => (
          <Paper key={section.id} component="section" id={section.id} withBorder p="md" radius="md" style={{ scrollMarginTop: 72 }}>
            <Stack gap="sm">
              <div>
                <Title order={2} size="h3">
                  {section.title}
                </Title>
                <Text size="sm">{section.description}</Text>
              </div>
              {section.body()}
            </Stack>
          </Paper>
        ))}
      </Stack>
    </>
  );
}
