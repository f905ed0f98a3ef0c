// The styles of the components behind sign-in (the first screen loads few).
import '../../styles/signed-in';
import { useEffect, useRef, useState, type RefObject } from 'react';
import {
  ActionIcon,
  AppShell,
  Burger,
  Divider,
  Group,
  NavLink,
  Progress,
  Text,
  ThemeIcon,
  Title,
  Tooltip,
  useComputedColorScheme,
  useMantineColorScheme,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconChevronDown,
  IconLock,
  IconLogout,
  IconMoon,
  IconSun,
  IconUser,
} from '@tabler/icons-react';
import { NavLink as RouterNavLink, useLocation, useNavigation } from 'react-router';
import { useIsFetching, useIsMutating, useQueryClient } from '@tanstack/react-query';
import { setForbiddenHandler } from '../../lib/api';
import { session } from '../../lib/session';
import { useAccessChanges, useEventStream } from '../../lib/events';
import { useSignOut } from '../../lib/sign-out';
import { Loading } from '../../components/Loading';
import { accessAt, GuardedOutlet } from '../../components/AccessDenied';
import { permissionKeys, seedGrants, useMayOpen } from '../../lib/permissions';
import { factorKeys, seedFactors } from '../../lib/factors';
import { MAIN_NAV, MORE_NAV, type NavItem } from './nav';
import { ENROLMENT_PATH, EnrolmentGate, useEnrolmentRequired } from './EnrolmentGate';
import { AppProviders } from '../app-providers';
import { ReauthPrompt } from '../../components/ReauthPrompt';
import classes from './AppLayout.module.css';

/**
 * The links to the screens the account may open: one it may not view (it would say "Access
 * Denied!", components/AccessDenied.tsx) is left out (issue #35, docs/features.md). While a second
 * factor must be set up first, every link shows, with a lock saying so.
 */
function NavItems(props: { items: NavItem[]; onNavigate: () => void }) {
  return props.items.map((item) => (
    <NavEntry key={item.to} item={item} onNavigate={props.onNavigate} />
  ));
}

function NavEntry({ item, onNavigate }: { item: NavItem; onNavigate: () => void }) {
  const { label, to, icon: Icon } = item;
  // Until the grants are known every link shows (remembered grants make that rare).
  const allowed = useMayOpen(accessAt(to)).allowed;
  const waiting = useEnrolmentRequired() === true && to !== ENROLMENT_PATH;
  // Shown only once the grants say it may be opened (never shown, then taken away).
  if (item.hiddenWhenDenied && allowed !== true) return null;
  const denied = allowed === false;
  if (denied && !waiting) return null;
  const locked = waiting;
  return (
    <NavLink
      component={RouterNavLink}
      to={to}
      end={to === '/'}
      label={label}
      leftSection={<Icon size={18} stroke={1.6} />}
      rightSection={
        locked ? (
          <Tooltip label="Set up a second factor first" position="right" withArrow>
            <IconLock size={15} stroke={1.8} role="img" aria-label="Set up a second factor first" />
          </Tooltip>
        ) : undefined
      }
      data-locked={locked || undefined}
      onClick={onNavigate}
    />
  );
}

/**
 * A thin bar across the top while any request is pending. Animated only then: its stripes move by
 * restyling on every frame, which an idle page should not pay for.
 */
function RequestIndicator() {
  const busy = useIsFetching() + useIsMutating() > 0;
  return (
    <Progress
      value={100}
      animated={busy}
      size={3}
      radius={0}
      pos="absolute"
      top={0}
      left={0}
      right={0}
      style={{ visibility: busy ? 'visible' : 'hidden' }}
      aria-hidden={!busy}
      aria-label="Loading"
    />
  );
}

/**
 * Light or dark: follows the system until chosen here; Mantine remembers the choice in this
 * browser.
 */
function ColorSchemeToggle() {
  const { setColorScheme } = useMantineColorScheme();
  const current = useComputedColorScheme('light');
  const next = current === 'dark' ? 'light' : 'dark';
  const label = `Switch to ${next} mode`;
  return (
    <Tooltip label={label}>
      <ActionIcon
        variant="default"
        size="lg"
        aria-label={label}
        onClick={() => setColorScheme(next)}
      >
        {current === 'dark' ? <IconSun size={18} /> : <IconMoon size={18} />}
      </ActionIcon>
    </Tooltip>
  );
}

/**
 * Whether a scrolling box has more below what shows (the menu at 900 px tall hides its last
 * links): it then shows a fade at its bottom edge.
 */
function useMoreBelow(ref: RefObject<HTMLDivElement | null>) {
  const [moreBelow, setMoreBelow] = useState(false);
  useEffect(() => {
    const box = ref.current;
    if (!box) return;
    const check = () => setMoreBelow(box.scrollTop + box.clientHeight < box.scrollHeight - 1);
    // No first check here: the observer calls it once the menu is laid out, where reading its
    // size costs nothing (read now, it forced a layout of the whole page mid-render).
    box.addEventListener('scroll', check, { passive: true });
    const resized = new ResizeObserver(check);
    resized.observe(box);
    return () => {
      box.removeEventListener('scroll', check);
      resized.disconnect();
    };
  }, [ref]);
  return moreBelow;
}

/** Grants read while the shell's code loaded (router.tsx): its first render knows them. */
export { seedGrants as rememberGrants, seedFactors as rememberFactors };

/** The signed-in screens: their providers around the shell. */
export function AppLayout() {
  return (
    <AppProviders>
      <Shell />
    </AppProviders>
  );
}

function Shell() {
  const [opened, { toggle, close }] = useDisclosure();
  const navigation = useNavigation();
  const location = useLocation();
  const client = useQueryClient();
  const loginId = session.loginId();

  useEffect(close, [location.pathname, close]);
  // The tab's one event stream: lists follow others' changes, dialogs show who else edits. Not
  // while a second factor is required first: the server refuses it then.
  useEventStream(useEnrolmentRequired() === false);
  const menuRef = useRef<HTMLDivElement>(null);
  const moreBelow = useMoreBelow(menuRef);

  // A refusal means the grants changed, or a second factor became required; the stream says so
  // as the owner changes them (`event: access`): read them again, so the menu, the open screen
  // and its buttons follow.
  const readAccessAgain = () => {
    void client.invalidateQueries({ queryKey: permissionKeys.mine });
    void client.invalidateQueries({ queryKey: factorKeys.mine });
  };
  useAccessChanges(readAccessAgain);
  useEffect(() => {
    setForbiddenHandler(() => {
      void client.invalidateQueries({ queryKey: permissionKeys.mine });
      void client.invalidateQueries({ queryKey: factorKeys.mine });
    });
    return () => setForbiddenHandler(() => undefined);
  }, [client]);

  const signOut = useSignOut();
  const logout = () => void signOut();

  // A route's code is still loading when the router is moving to another path.
  const loadingRoute =
    navigation.state === 'loading' && navigation.location.pathname !== location.pathname;

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 250, breakpoint: 'sm', collapsed: { mobile: !opened } }}
      padding="md"
    >
      <a href="#main" className={classes.skipLink}>
        Skip to content
      </a>
      <AppShell.Header>
        <RequestIndicator />
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger
              opened={opened}
              onClick={toggle}
              hiddenFrom="sm"
              size="sm"
              aria-label={opened ? 'Close menu' : 'Open menu'}
            />
            <Title order={3} size="h4">
              Master Admin
            </Title>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <Group gap={8} wrap="nowrap" visibleFrom="xs">
              <ThemeIcon variant="light" radius="xl" size="md">
                <IconUser size={16} />
              </ThemeIcon>
              <Text size="sm" truncate maw={220} data-testid="header-login-id">
                {loginId}
              </Text>
            </Group>
            <ColorSchemeToggle />
          </Group>
        </Group>
      </AppShell.Header>

      <AppShell.Navbar p="xs" aria-label="Main menu">
        <AppShell.Section px="sm" py={6}>
          <Text size="xs" c="dimmed">
            Signed in as
          </Text>
          <Text size="sm" fw={600} truncate data-testid="login-id">
            {loginId}
          </Text>
        </AppShell.Section>
        <Divider my={6} />
        <AppShell.Section
          grow
          ref={menuRef}
          className={classes.navScroll}
          data-more-below={moreBelow || undefined}
        >
          <nav aria-label="Areas">
            <NavItems items={MAIN_NAV} onNavigate={close} />
            <NavLink
              component="button"
              label="Logout"
              leftSection={<IconLogout size={18} stroke={1.6} />}
              onClick={logout}
            />
            <Divider my="xs" label="More" labelPosition="left" />
            <NavItems items={MORE_NAV} onNavigate={close} />
          </nav>
        </AppShell.Section>
        {moreBelow && (
          <div className={classes.moreBelow} aria-hidden>
            <IconChevronDown size={16} stroke={2} />
          </div>
        )}
      </AppShell.Navbar>

      {/* The skip link's target: focusable by script only, so Tab order is unchanged. */}
      <AppShell.Main id="main" tabIndex={-1} style={{ outline: 'none' }}>
        {loadingRoute ? (
          <Loading />
        ) : (
          <EnrolmentGate>
            <GuardedOutlet />
          </EnrolmentGate>
        )}
        <ReauthPrompt />
      </AppShell.Main>
    </AppShell>
  );
}
