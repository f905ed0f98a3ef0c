import { useState, type ChangeEvent, type FormEvent } from 'react';
import {
  Alert,
  Box,
  Button,
  Center,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconAlertCircle, IconLayoutDashboard } from '@tabler/icons-react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { MESSAGES, PATHS, loginBody, loginResponse } from '@master-admin/contract';
import { ApiError, api } from '../../lib/api';
import { session } from '../../lib/session';
import type { SignInState } from '../../app/layout/RequireAuth';

/** Sign-in's own error texts (spec §8). */
function signInError(err: unknown): string {
  if (err instanceof ApiError) {
    if (err.status !== undefined) return err.message || MESSAGES.anErrorOccurred;
    if (err.message === MESSAGES.invalidResponse) return err.message;
  }
  return MESSAGES.loginNetworkError;
}

type Fields = { email: string; password: string };
type FieldErrors = Partial<Record<keyof Fields, string>>;

/**
 * The first screen of every visit, so it carries little: plain state and the contract's schema,
 * without the form and query libraries the signed-in screens load.
 */
export default function SignInPage() {
  // Only a token stored before this screen opened sends the user on; a fresh sign-in navigates
  // back to where the user was going.
  const [signedInAlready] = useState(session.isSignedIn);
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as SignInState | null)?.from;
  const [values, setValues] = useState<Fields>({ email: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState(false);
  const [failure, setFailure] = useState<string>();

  if (signedInAlready) return <Navigate to="/" replace />;

  const validate = (next: Fields): FieldErrors => {
    const parsed = loginBody.safeParse(next);
    if (parsed.success) return {};
    const found: FieldErrors = {};
    for (const issue of parsed.error.issues) {
      const field = issue.path[0] as keyof Fields;
      found[field] ??= issue.message;
    }
    return found;
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validate(values);
    setErrors(found);
    if (Object.keys(found).length > 0 || pending) return;
    setPending(true);
    setFailure(undefined);
    try {
      const result = await api.json('POST', PATHS.login, loginResponse, loginBody.parse(values));
      session.signIn(result.token, result.loginId);
      await navigate(from && from.startsWith('/') && !from.startsWith('//') ? from : '/', {
        replace: true,
      });
    } catch (err) {
      setFailure(signInError(err));
      setPending(false);
    }
  };

  const field = (name: keyof Fields) => ({
    value: values[name],
    error: errors[name],
    // Mantine's PasswordInput marks only data-invalid; screen readers need aria-invalid.
    'aria-invalid': errors[name] ? true : undefined,
    onChange: (event: ChangeEvent<HTMLInputElement>) => {
      const next = { ...values, [name]: event.currentTarget.value };
      setValues(next);
      // Once shown, an error follows what is typed.
      if (errors[name]) setErrors({ ...errors, [name]: validate(next)[name] });
    },
    onBlur: () => {
      if (values[name] !== '' || errors[name])
        setErrors({ ...errors, [name]: validate(values)[name] });
    },
  });

  return (
    <Box component="main" bg="var(--mantine-color-body)" mih="100vh">
      <Center mih="100vh" p="md">
        <Paper withBorder shadow="sm" radius="lg" p="xl" w="100%" maw={400}>
          <form onSubmit={(event) => void submit(event)} noValidate>
            <Stack>
              <Stack gap={4} align="center">
                <ThemeIcon size={48} radius="md" variant="light">
                  <IconLayoutDashboard size={28} />
                </ThemeIcon>
                <Title order={1} size="h2">
                  Master Admin
                </Title>
                <Text c="dimmed" size="sm">
                  Sign in to manage your apps
                </Text>
              </Stack>
              {failure && (
                <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
                  {failure}
                </Alert>
              )}
              <TextInput
                label="Email or phone number"
                autoComplete="username"
                autoFocus
                {...field('email')}
              />
              <PasswordInput
                label="Password"
                autoComplete="current-password"
                {...field('password')}
              />
              <Button type="submit" fullWidth loading={pending} mt="xs">
                Sign in
              </Button>
            </Stack>
          </form>
        </Paper>
      </Center>
    </Box>
  );
}
