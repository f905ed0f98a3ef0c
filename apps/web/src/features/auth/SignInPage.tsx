import {
  lazy,
  Suspense,
  useEffect,
  useEffectEvent,
  useState,
  type ChangeEvent,
  type FormEvent,
} from 'react';
import {
  Alert,
  Box,
  Button,
  Center,
  Divider,
  Loader,
  Paper,
  PasswordInput,
  Stack,
  Text,
  TextInput,
  ThemeIcon,
  Title,
} from '@mantine/core';
import { IconAlertCircle, IconKey, IconLayoutDashboard } from '@tabler/icons-react';
import { Navigate, useLocation, useNavigate } from 'react-router';
import { z } from 'zod';
import {
  CHALLENGE_MINUTES,
  PATHS,
  loginBody,
  loginResponse,
  type LoginChallenge,
  type LoginResponse,
} from '@master-admin/contract';
import { api } from '../../lib/api';
import { session } from '../../lib/session';
import { loadWebAuthn, passkeyAutofillSupported, passkeysSupported } from '../../lib/passkeys';
import type { SignInState } from '../../app/layout/RequireAuth';
import { signInError } from './sign-in-error';

// The second step loads only for an account with a second factor (its code is asked for as the
// password goes out, so it is there by the time the answer is).
const loadSecondStep = () => import('./SecondFactorStep');
const SecondFactorStep = lazy(loadSecondStep);

type Fields = { email: string; password: string };
type FieldErrors = Partial<Record<keyof Fields, string>>;

/** The second step of a sign-in: the challenge the password earned, for the email typed. */
type SecondStep = LoginChallenge & { email: string };

/**
 * The first screen of every visit, so it carries little: plain state and the contract's schema,
 * without the form and query libraries the signed-in screens load. The second step (a code, a
 * recovery code, a passkey) and the passkey library load when they are needed.
 */
export default function SignInPage() {
  // Only a token stored before this screen opened sends the user on; a fresh sign-in navigates
  // back to where the user was going.
  const [signedInAlready] = useState(session.isSignedIn);
  const [withPasskeys] = useState(passkeysSupported);
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as SignInState | null)?.from;
  const [values, setValues] = useState<Fields>({ email: '', password: '' });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [pending, setPending] = useState<'password' | 'passkey'>();
  const [failure, setFailure] = useState<string>();
  const [secondStep, setSecondStep] = useState<SecondStep>();

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

  const finish = async (result: LoginResponse) => {
    session.signIn(result.token, result.loginId);
    await navigate(from && from.startsWith('/') && !from.startsWith('//') ? from : '/', {
      replace: true,
    });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validate(values);
    setErrors(found);
    if (Object.keys(found).length > 0 || pending) return;
    setPending('password');
    setFailure(undefined);
    void loadSecondStep();
    try {
      const body = loginBody.parse(values);
      // A token, or (the account has a second factor) a challenge: read by the second step's
      // module, so its schemas load with it rather than with this screen.
      const answer = await api.json('POST', PATHS.login, z.unknown(), body);
      const token = loginResponse.safeParse(answer);
      if (token.success) return await finish(token.data);
      const { readChallenge } = await loadSecondStep();
      setSecondStep({ ...readChallenge(answer), email: body.email });
    } catch (err) {
      setFailure(signInError(err));
    }
    setPending(undefined);
  };

  // The passkeys this device holds for the site are offered in the email field's autofill while
  // the form waits (not while a password or the passkey button is under way, nor at the second
  // step). The offer's challenge lasts CHALLENGE_MINUTES and a browser may keep an offer open
  // longer, so a fresh one takes its place before it runs out.
  const autofillSignedIn = useEffectEvent(async (result: LoginResponse) => {
    setPending('passkey');
    await finish(result);
  });
  const autofillFailed = useEffectEvent((err: unknown) => setFailure(signInError(err)));
  const offerAutofill = withPasskeys && !signedInAlready && !pending && !secondStep;
  useEffect(() => {
    if (!offerAutofill) return;
    let ended = false;
    let renew: ReturnType<typeof setTimeout> | undefined;
    let cancel: (() => void) | undefined;
    const offer = async () => {
      if (!(await passkeyAutofillSupported()) || ended) return;
      const ceremonies = await loadWebAuthn();
      if (ended) return;
      cancel = ceremonies.cancelPasskeyAutofill;
      const timer = setTimeout(
        () => {
          ceremonies.cancelPasskeyAutofill();
          void offer();
        },
        CHALLENGE_MINUTES * 60_000 - 30_000,
      );
      renew = timer;
      try {
        const result = await ceremonies.offerPasskeyAutofill();
        if (result && !ended) await autofillSignedIn(result);
      } catch (err) {
        // A passkey picked and then refused: shown, and not offered again until the form is used
        // (a refusal that repeats at once must not loop).
        if (!ended) autofillFailed(err);
      }
      // The offer has ended, one way or another: a renewal is only for one still waiting.
      clearTimeout(timer);
    };
    void offer();
    return () => {
      ended = true;
      clearTimeout(renew);
      cancel?.();
    };
  }, [offerAutofill]);

  /** A passkey sign-in: with `email`, one of that account's passkeys; without, any. */
  const passkeySignIn = async (email?: string): Promise<LoginResponse> => {
    const { signInWithPasskey } = await loadWebAuthn();
    return signInWithPasskey(email);
  };

  const signInWithPasskey = async () => {
    if (pending) return;
    setPending('passkey');
    setFailure(undefined);
    try {
      return await finish(await passkeySignIn());
    } catch (err) {
      setFailure(signInError(err));
    }
    setPending(undefined);
  };

  /** Back to the password, with why when the second step ran out. */
  const backToPassword = (reason?: string) => {
    setSecondStep(undefined);
    setValues({ ...values, password: '' });
    setFailure(reason);
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

  if (signedInAlready) return <Navigate to="/" replace />;

  const header = (
    <Stack gap={4} align="center">
      <ThemeIcon size={48} radius="md" variant="light">
        <IconLayoutDashboard size={28} />
      </ThemeIcon>
      <Title order={1} size="h2">
        Master Admin
      </Title>
      <Text c="dimmed" size="sm">
        {secondStep ? 'Confirm it is you' : 'Sign in to manage your apps'}
      </Text>
    </Stack>
  );

  return (
    <Box component="main" bg="var(--mantine-color-body)" mih="100vh">
      <Center mih="100vh" p="md">
        <Paper withBorder shadow="sm" radius="lg" p="xl" w="100%" maw={400}>
          {secondStep ? (
            <Stack>
              {header}
              <Suspense
                fallback={
                  <Center py="lg">
                    <Loader size="sm" role="status" aria-label="Loading" />
                  </Center>
                }
              >
                <SecondFactorStep
                  challenge={secondStep.challenge}
                  methods={secondStep.methods}
                  onSignedIn={finish}
                  onBack={backToPassword}
                  passkey={
                    withPasskeys && secondStep.methods.includes('passkey')
                      ? () => passkeySignIn(secondStep.email)
                      : undefined
                  }
                />
              </Suspense>
            </Stack>
          ) : (
            <form onSubmit={(event) => void submit(event)} noValidate>
              <Stack>
                {header}
                {failure && (
                  <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
                    {failure}
                  </Alert>
                )}
                <TextInput
                  label="Email or phone number"
                  // `webauthn` lets the browser list this device's passkeys among the usernames.
                  autoComplete={withPasskeys ? 'username webauthn' : 'username'}
                  autoFocus
                  {...field('email')}
                />
                <PasswordInput
                  label="Password"
                  autoComplete="current-password"
                  {...field('password')}
                />
                <Button
                  type="submit"
                  fullWidth
                  loading={pending === 'password'}
                  disabled={pending === 'passkey'}
                  mt="xs"
                >
                  Sign in
                </Button>
                {withPasskeys && (
                  <>
                    <Divider label="or" labelPosition="center" />
                    <Button
                      variant="default"
                      fullWidth
                      leftSection={<IconKey size={18} />}
                      loading={pending === 'passkey'}
                      disabled={pending === 'password'}
                      onClick={() => void signInWithPasskey()}
                    >
                      Sign in with a passkey
                    </Button>
                  </>
                )}
              </Stack>
            </form>
          )}
        </Paper>
      </Center>
    </Box>
  );
}
