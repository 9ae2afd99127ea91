import { Anchor, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { snip, type ApiErrorCode } from '../api';
import { fieldError, isFormError } from '../components/ui';
import { useSession } from '../session';
import { AuthError, AuthShell } from './AuthPages';

const PASSWORD_CODES: ApiErrorCode[] = ['INVALID_PASSWORD'];

/**
 * The page a password reset link opens (made by an operator, passed on by hand): a new password, then signed in
 * and on to the links. Open whether or not this browser is signed in: the link's account is the one that counts.
 */
export function ResetPasswordPage() {
  const session = useSession();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      session.adopt(await snip.post('/api/auth/reset-password', { body: { token, password } }));
      navigate('/links', { replace: true });
    } catch (caught) {
      setError(caught);
    } finally {
      setBusy(false);
    }
  };

  if (!token) {
    return (
      <AuthShell title="Set a new password" tabTitle="Reset password">
        <Text>This page needs the whole reset link the server's operator gave you, with its token. Open that link again, or ask for a new one.</Text>
        <Anchor component={Link} to="/sign-in" size="sm">
          Sign in
        </Anchor>
      </AuthShell>
    );
  }
  return (
    <AuthShell title="Set a new password" tabTitle="Reset password">
      <form onSubmit={submit} noValidate>
        <Stack>
          <Text size="sm">Choose a new password for your account. The link works once; your other sessions end when the password is set.</Text>
          {isFormError(error, PASSWORD_CODES) && <AuthError error={error} title="The password was not set" />}
          <PasswordInput
            label="New password"
            visibilityToggleButtonProps={{ 'aria-label': 'Show or hide the characters' }}
            autoComplete="new-password"
            required
            description="At least 8 characters"
            value={password}
            onChange={(e) => setPassword(e.currentTarget.value)}
            error={fieldError(error, PASSWORD_CODES)}
          />
          <Button type="submit" loading={busy} fullWidth>
            Set password
          </Button>
        </Stack>
      </form>
    </AuthShell>
  );
}
