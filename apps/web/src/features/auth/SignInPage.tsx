import { useState } from 'react';
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
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { useMutation } from '@tanstack/react-query';
import { MESSAGES, PATHS, loginBody, loginResponse, type LoginBody } from '@master-admin/contract';
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

export default function SignInPage() {
  // Only a token stored before this screen opened sends the user on; a fresh sign-in navigates
  // back to where the user was going.
  const [signedInAlready] = useState(session.isSignedIn);
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as SignInState | null)?.from;
  const form = useForm<LoginBody>({
    resolver: zodResolver(loginBody),
    defaultValues: { email: '', password: '' },
  });
  const login = useMutation({
    mutationFn: (body: LoginBody) => api.postJson(PATHS.login, loginResponse, body),
    onSuccess: async (result) => {
      session.signIn(result.token, result.loginId);
      await navigate(from && from.startsWith('/') && !from.startsWith('//') ? from : '/', {
        replace: true,
      });
    },
  });

  if (signedInAlready) return <Navigate to="/" replace />;

  const errors = form.formState.errors;
  return (
    <Box bg="gray.0" mih="100vh">
      <Center mih="100vh" p="md">
        <Paper withBorder shadow="sm" radius="lg" p="xl" w="100%" maw={400}>
          <form onSubmit={form.handleSubmit((values) => login.mutate(values))} noValidate>
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
              {login.isError && (
                <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
                  {signInError(login.error)}
                </Alert>
              )}
              <TextInput
                label="Email or phone number"
                autoComplete="username"
                autoFocus
                {...form.register('email')}
                error={errors.email?.message}
              />
              <PasswordInput
                label="Password"
                autoComplete="current-password"
                {...form.register('password')}
                error={errors.password?.message}
              />
              <Button type="submit" fullWidth loading={login.isPending} mt="xs">
                Sign in
              </Button>
            </Stack>
          </form>
        </Paper>
      </Center>
    </Box>
  );
}
