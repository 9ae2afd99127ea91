import { Anchor, AppShell, Burger, Group, Menu, NavLink, ScrollArea, Text, UnstyledButton } from '@mantine/core';
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
  IconShieldLock,
} from '@tabler/icons-react';
import { Suspense, useState, type MouseEvent } from 'react';
import { Link, Outlet, useLocation, useNavigate } from 'react-router';
import { Loading } from './ui';
import { planName } from '../plan';
import { useAccount, useSession } from '../session';

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
/** Shown to the server's operators only; the server refuses its API to everyone else whatever the page shows. */
const ADMIN = { to: '/admin', label: 'Admin', icon: IconShieldLock };

const MAIN_ID = 'main-content';

/**
 * The first thing Tab reaches: past the header and the navigation to the page itself (WCAG 2.4.1). Out of sight
 * until focused.
 */
function SkipLink() {
  const [focused, setFocused] = useState(false);
  const skip = (event: MouseEvent) => {
    // Focus moves without a #fragment in the address, which the router would keep on every later page.
    event.preventDefault();
    document.getElementById(MAIN_ID)?.focus();
  };
  return (
    <Anchor
      href={`#${MAIN_ID}`}
      onClick={skip}
      onFocus={() => setFocused(true)}
      onBlur={() => setFocused(false)}
      fw={600}
      px="md"
      py="xs"
      bg="var(--mantine-color-body)"
      style={
        focused
          ? { position: 'fixed', top: 8, left: 8, zIndex: 1000, borderRadius: 'var(--mantine-radius-md)', boxShadow: 'var(--mantine-shadow-md)' }
          : { position: 'absolute', width: 1, height: 1, padding: 0, overflow: 'hidden', clip: 'rect(0 0 0 0)', whiteSpace: 'nowrap' }
      }
    >
      Skip to content
    </Anchor>
  );
}

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

  const nav = account.role === 'operator' ? [...NAV, ADMIN] : NAV;

  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 230, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <SkipLink />
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={opened ? 'Close navigation' : 'Open navigation'} />
            <Text component={Link} to="/links" fw={800} size="lg" c="indigo" td="none">
              Snip
            </Text>
          </Group>
          <Menu position="bottom-end" withinPortal>
            <Menu.Target>
              {/* The name holds the address shown on the button (WCAG 2.5.3, label in name). */}
              <UnstyledButton aria-label={`Account menu, ${account.email}`}>
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
              <Menu.Label>{account.role === 'operator' ? planName(account) : `${planName(account)} plan`}</Menu.Label>
              <Menu.Item component={Link} to="/account" leftSection={<IconUser size={14} aria-hidden />}>
                Plan & account
              </Menu.Item>
              <Menu.Item component={Link} to="/keys" leftSection={<IconKey size={14} aria-hidden />}>
                API keys
              </Menu.Item>
              <Menu.Divider />
              {/* Mantine colours a menu item with shade 6 whatever the scheme (3.3:1); c takes the theme's readable red. */}
              <Menu.Item c="red" leftSection={<IconLogout size={14} aria-hidden />} onClick={signOut}>
                Sign out
              </Menu.Item>
            </Menu.Dropdown>
          </Menu>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main">
        <ScrollArea>
          {nav.map(({ to, label, icon: Icon }) => (
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
      {/* Focusable from script only, for the skip link; no outline around the whole page when it lands. */}
      <AppShell.Main id={MAIN_ID} tabIndex={-1} style={{ outline: 'none' }}>
        <Suspense fallback={<Loading />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
