import { Anchor, Box, Button, Center, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useLocation } from 'react-router';
import type { ApiErrorCode } from '../api';
import { ErrorNotice, fieldError, isFormError } from '../components/ui';
import { useSession } from '../session';

const EMAIL_CODES: ApiErrorCode[] = ['INVALID_EMAIL', 'EMAIL_TAKEN'];
const PASSWORD_CODES: ApiErrorCode[] = ['INVALID_PASSWORD'];

function AuthForm({ mode }: { mode: 'sign-in' | 'sign-up' }) {
  const session = useSession();
  const location = useLocation();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const signUp = mode === 'sign-up';
  const title = signUp ? 'Create your Snip account' : 'Sign in to Snip';

  useEffect(() => {
    document.title = `${signUp ? 'Sign up' : 'Sign in'} · Snip`;
  }, [signUp]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      // Signed in, the page around this form (SignedOutOnly in App.tsx) leads on to the page asked for. Navigating
      // from here too raced it: the session's update rendered first and its redirect to the links won.
      await (signUp ? session.signUp(email, password) : session.signIn(email, password));
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  return (
    <Center mih="100vh" p="md" bg="gray.0">
      <Box w="100%" maw={420}>
        <Text ta="center" fw={800} size="xl" c="indigo.7" mb="xs">
          Snip
        </Text>
        <Paper withBorder shadow="sm" p="lg" radius="md">
          <form onSubmit={submit} noValidate>
            <Stack>
              <Title order={1} size="h3">
                {title}
              </Title>
              {isFormError(error, [...EMAIL_CODES, ...PASSWORD_CODES]) && <ErrorNotice error={error} title={signUp ? 'Could not sign up' : 'Could not sign in'} />}
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
        </Paper>
        <Text size="xs" c="dimmed" ta="center" mt="md">
          <Anchor href="/docs" size="xs">API reference</Anchor> · <Anchor href="/openapi.yaml" size="xs">OpenAPI</Anchor>
        </Text>
      </Box>
    </Center>
  );
}

export const SignInPage = () => <AuthForm mode="sign-in" />;
export const SignUpPage = () => <AuthForm mode="sign-up" />;
