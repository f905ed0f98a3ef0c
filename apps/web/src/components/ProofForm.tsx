import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { Alert, Button, Divider, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import { IconAlertCircle, IconKey } from '@tabler/icons-react';
import { MESSAGES, TOTP_DIGITS } from '@master-admin/contract';
import { ApiError } from '../lib/api';

/** The ways to prove who one is by typing: the password, or a code. */
export type TypedProof = 'password' | 'totp' | 'recovery';
export type Proof =
  { method: 'password'; password: string } | { method: 'totp' | 'recovery'; code: string };

const TOTP_PATTERN = new RegExp(`^\\d{${TOTP_DIGITS}}$`);

const SWITCH_LABELS: Record<TypedProof, string> = {
  password: 'Use your password',
  totp: 'Use the authenticator app',
  recovery: 'Use a recovery code',
};

const PROMPTS: Record<TypedProof, string> = {
  password: 'Enter your password.',
  totp: `Enter the ${TOTP_DIGITS}-digit code your authenticator app shows for Master Admin.`,
  recovery:
    'Enter one of the recovery codes you saved when you set up the authenticator app. Each works once.',
};

/**
 * Proving who one is, the one form for it: a sign-in's second step (a code or a passkey) and the
 * signed-in prompt before a change of how the account signs in (the password too). `methods` are
 * what the account can type, the first shown first; `passkey`, when the account has one and this
 * browser can use it. A wrong password or code is marked on its field; a throttled try (429)
 * waits out the time the server named.
 */
export function ProofForm(props: {
  methods: TypedProof[];
  prove: (proof: Proof) => Promise<void>;
  passkey: (() => Promise<void>) | undefined;
  /** The text of a refusal the form does not mark on a field. */
  failureText: (err: unknown) => string;
  /** A refusal the caller takes over (true: handled), before the form shows it. */
  onRefused?: (err: unknown) => boolean;
  submitLabel: string;
  /** Shown when nothing can be typed and this browser cannot use a passkey. */
  nothingToUse: string;
  /** What sits below (Back, Cancel), told whether a proof is under way. */
  footer: (pending: boolean) => ReactNode;
  /** The account's email, for the password manager to file a typed password under. */
  username?: string | undefined;
}) {
  const { methods, passkey } = props;
  const [method, setMethod] = useState<TypedProof | undefined>(methods[0]);
  const [typed, setTyped] = useState('');
  const [fieldError, setFieldError] = useState<string>();
  const [failure, setFailure] = useState<string>();
  const [pending, setPending] = useState<'typed' | 'passkey'>();
  // A throttled try (429) may not be made again until the time the server named.
  const [blockedFor, setBlockedFor] = useState<number>();
  useEffect(() => {
    if (blockedFor === undefined) return;
    const timer = setTimeout(() => setBlockedFor(undefined), blockedFor * 1000);
    return () => clearTimeout(timer);
  }, [blockedFor]);

  const refused = (err: unknown) => {
    if (props.onRefused?.(err)) return;
    const onField =
      err instanceof ApiError &&
      (err.message === MESSAGES.invalidCode ||
        err.details.some((d) => d.path === 'password' || d.path === 'code'));
    if (onField) {
      // A wrong six digits are typed again whole; a password or a long code is fixed in place.
      if (method === 'totp') setTyped('');
      setFieldError(err.message);
      return;
    }
    if (err instanceof ApiError && err.status === 429) setBlockedFor(err.retryAfter ?? 60);
    setFailure(props.failureText(err));
  };

  const run = async (kind: 'typed' | 'passkey', work: () => Promise<void>) => {
    if (pending || blockedFor !== undefined) return;
    setPending(kind);
    setFailure(undefined);
    try {
      return await work();
    } catch (err) {
      refused(err);
    }
    setPending(undefined);
  };

  const submit = (value: string) => {
    if (!method) return;
    const trimmed = value.trim();
    const problem =
      method === 'totp'
        ? TOTP_PATTERN.test(trimmed.replace(/\s/g, ''))
          ? undefined
          : `Enter the ${TOTP_DIGITS} digits your app shows`
        : !trimmed
          ? method === 'password'
            ? 'Enter your password'
            : 'Enter one of your recovery codes'
          : undefined;
    setFieldError(problem);
    if (problem) return;
    void run('typed', () =>
      props.prove(method === 'password' ? { method, password: value } : { method, code: trimmed }),
    );
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    submit(typed);
  };

  const switchTo = (next: TypedProof) => {
    setMethod(next);
    setTyped('');
    setFieldError(undefined);
  };

  const field = {
    value: typed,
    error: fieldError,
    'aria-invalid': fieldError ? true : undefined,
    autoFocus: true,
  } as const;
  const changed = (value: string) => {
    setTyped(value);
    if (fieldError) setFieldError(undefined);
  };

  return (
    <form onSubmit={onSubmit} noValidate>
      <Stack>
        {failure && (
          <Alert color="red" icon={<IconAlertCircle size={18} />} role="alert">
            {failure}
          </Alert>
        )}
        {method && (
          <>
            <Text size="sm">{PROMPTS[method]}</Text>
            {method === 'password' ? (
              <>
                {props.username && (
                  <input
                    type="text"
                    name="username"
                    autoComplete="username"
                    value={props.username}
                    readOnly
                    hidden
                  />
                )}
                <PasswordInput
                  key="password"
                  label="Password"
                  autoComplete="current-password"
                  {...field}
                  onChange={(event) => changed(event.currentTarget.value)}
                />
              </>
            ) : method === 'totp' ? (
              <TextInput
                key="totp"
                label="Authentication code"
                autoComplete="one-time-code"
                inputMode="numeric"
                maxLength={TOTP_DIGITS + 2}
                {...field}
                onChange={(event) => {
                  const value = event.currentTarget.value;
                  changed(value);
                  // The code is complete at its sixth digit: no need to press the button.
                  if (TOTP_PATTERN.test(value.replace(/\s/g, ''))) submit(value);
                }}
              />
            ) : (
              <TextInput
                key="recovery"
                label="Recovery code"
                autoComplete="off"
                autoCapitalize="none"
                spellCheck={false}
                {...field}
                onChange={(event) => changed(event.currentTarget.value)}
              />
            )}
            <Button
              type="submit"
              fullWidth
              loading={pending === 'typed'}
              disabled={pending === 'passkey' || blockedFor !== undefined}
            >
              {props.submitLabel}
            </Button>
            {methods
              .filter((other) => other !== method)
              .map((other) => (
                // A button styled as a link: the sign-in screen loads only the Button's styles.
                <Button
                  key={other}
                  variant="subtle"
                  size="compact-sm"
                  onClick={() => switchTo(other)}
                >
                  {SWITCH_LABELS[other]}
                </Button>
              ))}
          </>
        )}
        {!method && !passkey && (
          <Alert color="yellow" icon={<IconAlertCircle size={18} />}>
            {props.nothingToUse}
          </Alert>
        )}
        {passkey && (
          <>
            {method && <Divider label="or" labelPosition="center" />}
            <Button
              variant="default"
              fullWidth
              leftSection={<IconKey size={18} />}
              loading={pending === 'passkey'}
              disabled={pending === 'typed'}
              onClick={() => void run('passkey', passkey)}
            >
              Use your passkey
            </Button>
          </>
        )}
        {props.footer(pending !== undefined)}
      </Stack>
    </form>
  );
}
