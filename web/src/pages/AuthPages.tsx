import { Alert, Anchor, Box, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { IconInfoCircle } from '@tabler/icons-react';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { ApiError, messageOf, snip, type ApiErrorCode } from '../api';
import { fieldError, isFormError, Loading } from '../components/ui';
import { useSession } from '../session';

const EMAIL_CODES: ApiErrorCode[] = ['INVALID_EMAIL', 'EMAIL_TAKEN'];
const PASSWORD_CODES: ApiErrorCode[] = ['INVALID_PASSWORD'];

// What a refusal means to the person at the form; any other code keeps the server's own sentence.
const WORDS: Partial<Record<ApiErrorCode, string>> = {
  BAD_CREDENTIALS: 'That email and password do not match an account here. Check both and try again.',
  ACCOUNT_DISABLED: "This account has been disabled by the server's operator. Ask them if you think that is a mistake.",
  SIGNUP_CLOSED: "Sign-up is closed on this server. Ask the server's operator for an account.",
  INVITE_REQUIRED: "This server takes new accounts by invitation only. Ask the server's operator for an invite link.",
  INVALID_INVITE: "This invite link has already been used, has expired or was never valid. Ask the server's operator for a new one.",
  INVALID_RESET_TOKEN: "This password reset link has already been used, has expired or was never valid. Ask the server's operator for a new one.",
};

export const authMessage = (error: unknown): string => (error instanceof ApiError && WORDS[error.code]) || messageOf(error);

/** A refusal above the form, in people's words (no code: it means nothing to the person signing in). */
export function AuthError({ error, title }: { error: unknown; title: string }) {
  if (!error) return null;
  return (
    <Alert color="red" title={title} role="alert" icon={<IconInfoCircle aria-hidden />}>
      {authMessage(error)}
    </Alert>
  );
}

/**
 * The frame of every signed-out page: one `main` landmark with the page's one h1, and the API links in a footer.
 * Colours come from the theme's variables, so it reads the same in dark mode.
 */
export function AuthShell({ title, tabTitle, children }: { title: string; tabTitle: string; children: ReactNode }) {
  useEffect(() => {
    document.title = `${tabTitle} · Snip`;
  }, [tabTitle]);
  return (
    <Center mih="100vh" p="md">
      <Box w="100%" maw={420}>
        <Box component="main">
          <Text ta="center" fw={800} size="xl" c="var(--mantine-color-anchor)" mb="xs">
            Snip
          </Text>
          <Paper withBorder shadow="sm" p="lg" radius="md">
            <Stack>
              <Title order={1} size="h3">
                {title}
              </Title>
              {children}
            </Stack>
          </Paper>
        </Box>
        <Text component="footer" size="xs" ta="center" mt="md">
          <Anchor href="/docs" size="xs">
            API reference
          </Anchor>{' '}
          ·{' '}
          <Anchor href="/openapi.yaml" size="xs">
            OpenAPI
          </Anchor>
        </Text>
      </Box>
    </Center>
  );
}

function CredentialsForm({
  signUp,
  submit,
  note,
}: {
  signUp: boolean;
  submit: (email: string, password: string) => Promise<void>;
  note?: ReactNode;
}) {
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      // Signed in, the page around this form (SignedOutOnly in App.tsx) leads on to the page asked for. Navigating
      // from here too raced it: the session's update rendered first and its redirect to the links won.
      await submit(email, password);
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        {note}
        {isFormError(error, [...EMAIL_CODES, ...PASSWORD_CODES]) && <AuthError error={error} title={signUp ? 'Could not sign up' : 'Could not sign in'} />}
        <TextInput
          label="Email"
          type="email"
          autoComplete="email"
          required
          value={email}
          onChange={(e) => setEmail(e.currentTarget.value)}
          error={fieldError(error, EMAIL_CODES)}
        />
        <PasswordInput
          label="Password"
          // Named without the word "password", so the field is the only thing its label finds.
          visibilityToggleButtonProps={{ 'aria-label': 'Show or hide the characters' }}
          autoComplete={signUp ? 'new-password' : 'current-password'}
          required
          description={signUp ? 'At least 8 characters' : undefined}
          value={password}
          onChange={(e) => setPassword(e.currentTarget.value)}
          error={fieldError(error, PASSWORD_CODES)}
        />
        <Button type="submit" loading={busy} fullWidth>
          {signUp ? 'Sign up' : 'Sign in'}
        </Button>
        <Text size="sm" ta="center">
          {signUp ? (
            <>
              Already have an account? <Anchor component={Link} to={{ pathname: '/sign-in', search: location.search }}>Sign in instead</Anchor>
            </>
          ) : (
            <>
              New to Snip? <Anchor component={Link} to={{ pathname: '/sign-up', search: location.search }}>Create an account</Anchor>
            </>
          )}
        </Text>
      </Stack>
    </form>
  );
}

export function SignInPage() {
  const session = useSession();
  return (
    <AuthShell title="Sign in to Snip" tabTitle="Sign in">
      <CredentialsForm signUp={false} submit={session.signIn} />
    </AuthShell>
  );
}

/** A sign-up page that shows no form: why, and the way to the sign-in page. */
function NoSignUp({ children }: { children: ReactNode }) {
  return (
    <Stack>
      <Text>{children}</Text>
      <Text size="sm">
        Already have an account?{' '}
        <Anchor component={Link} to="/sign-in">
          Sign in
        </Anchor>
      </Text>
    </Stack>
  );
}

/**
 * Sign-up as the server allows it (GET /api/auth/sign-up-options): open, by invite (the link's `?invite=` is sent
 * along), or closed. The first account of a new server becomes its operator, and the page says so.
 */
export function SignUpPage() {
  const session = useSession();
  const [params] = useSearchParams();
  const invite = params.get('invite') ?? undefined;
  // An older server without the options route is open, as sign-up was before it.
  const options = useQuery({
    queryKey: ['sign-up-options'],
    queryFn: () => snip.get('/api/auth/sign-up-options').catch(() => ({ mode: 'open' as const, firstAccount: false })),
    staleTime: 0,
  });

  const title = 'Create your Snip account';
  if (!options.data) {
    return (
      <AuthShell title={title} tabTitle="Sign up">
        <Loading />
      </AuthShell>
    );
  }
  const { mode, firstAccount } = options.data;
  if (mode === 'closed') {
    return (
      <AuthShell title="Sign-up is closed" tabTitle="Sign up">
        <NoSignUp>Sign-up is closed on this server: new accounts are not taken here. Ask the server's operator if you need one.</NoSignUp>
      </AuthShell>
    );
  }
  if (mode === 'invite' && !invite && !firstAccount) {
    return (
      <AuthShell title="An invite link is needed" tabTitle="Sign up">
        <NoSignUp>This server takes new accounts by invitation only. Ask the server's operator for an invite link, then open it to sign up.</NoSignUp>
      </AuthShell>
    );
  }
  const note = firstAccount ? (
    <Alert color="indigo" variant="outline" title="You will run this server" icon={<IconInfoCircle aria-hidden />}>
      This is the first account on this Snip server, so it becomes the operator: no plan limits, and an Admin page for accounts, sign-ups and abuse reports.
    </Alert>
  ) : invite ? (
    <Text size="sm">You were invited: this link creates one account.</Text>
  ) : undefined;
  return (
    <AuthShell title={title} tabTitle="Sign up">
      <CredentialsForm signUp note={note} submit={async (email, password) => session.adopt(await snip.post('/api/auth/sign-up', { body: { email, password, ...(invite ? { invite } : {}) } }))} />
    </AuthShell>
  );
}
