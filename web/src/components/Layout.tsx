import { AppShell, Burger, Group, Menu, NavLink, ScrollArea, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconChevronDown,
  IconFolder,
  IconKey,
  IconLink,
  IconLogout,
  IconTags,
  IconUpload,
  IconUser,
  IconWebhook,
  IconWorld,
  IconAdjustments,
} from '@tabler/icons-react';
import { Suspense } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { Loading } from './ui';
import { tierLabel, useAccount, useSession } from '../session';

const NAV = [
  { to: '/links', label: 'Links', icon: IconLink },
  { to: '/import', label: 'Bulk import', icon: IconUpload },
  { to: '/folders', label: 'Folders', icon: IconFolder },
  { to: '/tags', label: 'Tags', icon: IconTags },
  { to: '/utm-templates', label: 'UTM templates', icon: IconAdjustments },
  { to: '/domains', label: 'Domains', icon: IconWorld },
  { to: '/webhooks', label: 'Webhooks', icon: IconWebhook },
  { to: '/keys', label: 'API keys', icon: IconKey },
  { to: '/account', label: 'Plan & account', icon: IconUser },
];

export function Layout() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const { pathname } = useLocation();
  const session = useSession();
  const account = useAccount();
  const navigate = useNavigate();

  const signOut = async () => {
    await session.signOut().catch(() => undefined);
    navigate('/sign-in', { replace: true });
  };

  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 230, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={opened ? 'Close navigation' : 'Open navigation'} />
            <Text component={Link} to="/links" fw={800} size="lg" c="indigo.7" td="none">
              Snip
            </Text>
          </Group>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              <UnstyledButton aria-label="Account menu">
                <Group gap={6} wrap="nowrap">
                  <IconUser size={18} aria-hidden />
                  <Text size="sm" visibleFrom="xs" truncate maw={220}>
                    {account.email}
                  </Text>
                  <IconChevronDown size={14} aria-hidden />
                </Group>
              </UnstyledButton>
            </Menu.Target>
            <Menu.Dropdown>
              <Menu.Label>{tierLabel(account.tier)} plan</Menu.Label>
              <Menu.Item component={Link} to="/account" leftSection={<IconUser size={14} aria-hidden />}>
                Plan & account
              </Menu.Item>
              <Menu.Item component={Link} to="/keys" leftSection={<IconKey size={14} aria-hidden />}>
                API keys
              </Menu.Item>
              <Menu.Divider />
              <Menu.Item color="red" leftSection={<IconLogout size={14} aria-hidden />} onClick={signOut}>
                Sign out
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main">
        <ScrollArea>
          {NAV.map(({ to, label, icon: Icon }) => (
            <NavLink
              key={to}
              component={Link}
              to={to}
              label={label}
              leftSection={<Icon size={18} aria-hidden />}
              active={pathname === to || pathname.startsWith(`${to}/`)}
              aria-current={pathname === to ? 'page' : undefined}
              onClick={close}
            />
          ))}
        </ScrollArea>
      </AppShell.Navbar>
      <AppShell.Main>
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
