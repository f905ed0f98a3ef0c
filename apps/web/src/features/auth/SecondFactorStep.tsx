import { useEffect, useState, type FormEvent } from 'react';
import { Alert, Button, Divider, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconArrowLeft, IconKey } from '@tabler/icons-react';
import {
  MESSAGES,
  PATHS,
  TOTP_DIGITS,
  loginChallenge,
  loginResponse,
  type LoginChallenge,
  type LoginResponse,
  type SecondFactorMethod,
} from '@master-admin/contract';
import { ApiError, api } from '../../lib/api';
import { signInError } from './sign-in-error';

type CodeMethod = 'totp' | 'recovery';

/** A password sign-in's answer that is not a token: the challenge of the second step. */
export function readChallenge(answer: unknown): LoginChallenge {
  const parsed = loginChallenge.safeParse(answer);
  if (!parsed.success) throw new ApiError(MESSAGES.invalidResponse);
  return parsed.data;
}

const TOTP_PATTERN = new RegExp(`^\\d{${TOTP_DIGITS}}$`);

/**
 * The second step of a sign-in (API.md, "Second factors"): a code from the authenticator app, a
 * recovery code, or a passkey, whichever the server offers for this account. A challenge that ran
 * out sends the person back to the password with the reason.
 */
export default function SecondFactorStep(props: {
  challenge: string;
  methods: SecondFactorMethod[];
  onSignedIn: (result: LoginResponse) => Promise<void>;
  /** Back to the password; `reason` is shown there. */
  onBack: (reason?: string) => void;
  /** Signs in with one of this account's passkeys (when offered and this browser has them). */
  passkey: (() => Promise<LoginResponse>) | undefined;
}) {
  const { methods, passkey } = props;
  const [method, setMethod] = useState<CodeMethod>(methods.includes('totp') ? 'totp' : 'recovery');
  const [code, setCode] = useState('');
  const [codeError, setCodeError] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const [pending, setPending] = useState<'code' | 'passkey'>();
  // A throttled step (429) may not be tried again until the time the server named.
  const [blockedFor, setBlockedFor] = useState<number>();
  useEffect(() => {
    if (blockedFor === undefined) return;
    const timer = setTimeout(() => setBlockedFor(undefined), blockedFor * 1000);
    return () => clearTimeout(timer);
  }, [blockedFor]);

  const offersCode = methods.includes('totp') || methods.includes('recovery');
  const other: CodeMethod | undefined =
    method === 'totp'
      ? methods.includes('recovery')
        ? 'recovery'
        : undefined
      : methods.includes('totp')
        ? 'totp'
        : undefined;

  const refused = (err: unknown) => {
    if (err instanceof ApiError && err.message === MESSAGES.challengeExpired) {
      return props.onBack(err.message);
    }
    if (err instanceof ApiError && err.message === MESSAGES.invalidCode) {
      // A wrong six digits are typed again whole; a long recovery code is fixed where it is wrong.
      if (method === 'totp') setCode('');
      setCodeError(err.message);
      return;
    }
    if (err instanceof ApiError && err.status === 429) setBlockedFor(err.retryAfter ?? 60);
    setFailure(signInError(err));
  };

  const verify = async (typed: string) => {
    if (pending || blockedFor !== undefined) return;
    const trimmed = typed.trim();
    const problem =
      method === 'totp'
        ? TOTP_PATTERN.test(trimmed.replace(/\s/g, ''))
          ? undefined
          : `Enter the ${TOTP_DIGITS} digits your app shows`
        : trimmed
          ? undefined
          : 'Enter one of your recovery codes';
    setCodeError(problem);
    if (problem) return;
    setPending('code');
    setFailure(undefined);
    try {
      const result = await api.json('POST', PATHS.loginVerify, loginResponse, {
        challenge: props.challenge,
        method,
        code: trimmed,
      });
      return await props.onSignedIn(result);
    } catch (err) {
      refused(err);
    }
    setPending(undefined);
  };

  const signInWithPasskey = async (passkey: () => Promise<LoginResponse>) => {
    if (pending) return;
    setPending('passkey');
    setFailure(undefined);
    try {
      return await props.onSignedIn(await passkey());
    } catch (err) {
      refused(err);
    }
    setPending(undefined);
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    void verify(code);
  };

  const switchTo = (next: CodeMethod) => {
    setMethod(next);
    setCode('');
    setCodeError(undefined);
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack>
        {failure && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
            {failure}
          </Alert>
        )}
        {offersCode && (
          <>
            <Text size="sm">
              {method === 'totp'
                ? `Enter the ${TOTP_DIGITS}-digit code your authenticator app shows for Master Admin.`
                : 'Enter one of the recovery codes you saved when you set up the authenticator app. Each works once.'}
            </Text>
            {method === 'totp' ? (
              <TextInput
                key="totp"
                label="Authentication code"
                autoComplete="one-time-code"
                inputMode="numeric"
                autoFocus
                maxLength={TOTP_DIGITS + 2}
                value={code}
                error={codeError}
                aria-invalid={codeError ? true : undefined}
                onChange={(event) => {
                  const typed = event.currentTarget.value;
                  setCode(typed);
                  if (codeError) setCodeError(undefined);
                  // The code is complete at its sixth digit: no need to press Verify.
                  if (TOTP_PATTERN.test(typed.replace(/\s/g, ''))) void verify(typed);
                }}
              />
            ) : (
              <TextInput
                key="recovery"
                label="Recovery code"
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                autoFocus
                value={code}
                error={codeError}
                aria-invalid={codeError ? true : undefined}
                onChange={(event) => {
                  setCode(event.currentTarget.value);
                  if (codeError) setCodeError(undefined);
                }}
              />
            )}
            <Button
              type="submit"
              fullWidth
              loading={pending === 'code'}
              disabled={pending === 'passkey' || blockedFor !== undefined}
            >
              Verify
            </Button>
            {other && (
              // A button styled as a link: the sign-in screen loads only the Button's styles.
              <Button variant="subtle" size="compact-sm" onClick={() => switchTo(other)}>
                {other === 'recovery' ? 'Use a recovery code' : 'Use the authenticator app'}
              </Button>
            )}
          </>
        )}
        {!offersCode && !passkey && (
          <Alert color="yellow" icon={<IconAlertCircle size={18} />}>
            This account signs in with a passkey, and this browser cannot use passkeys. Try another
            browser or device.
          </Alert>
        )}
        {passkey && (
          <>
            {offersCode && <Divider label="or" labelPosition="center" />}
            <Button
              variant="default"
              fullWidth
              leftSection={<IconKey size={18} />}
              loading={pending === 'passkey'}
              disabled={pending === 'code'}
              onClick={() => void signInWithPasskey(passkey)}
            >
              Use your passkey
            </Button>
          </>
        )}
        <Button
          variant="subtle"
          color="gray"
          leftSection={<IconArrowLeft size={16} />}
          onClick={() => props.onBack()}
          disabled={pending !== undefined}
          style={{ alignSelf: 'center' }}
        >
          Back
        </Button>
      </Stack>
    </form>
  );
}
