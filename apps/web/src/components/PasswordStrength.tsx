import { useEffect, useState, type ReactNode } from 'react';
import { Progress, Text } from '@mantine/core';
import type { PasswordStrength } from '@master-admin/contract/password-strength';

/** Whose password it is: a password built from these is refused (the contract's rule). */
export type PasswordOwner = {
  email?: string | null | undefined;
  name?: string | null | undefined;
  phoneNumber?: string | null | undefined;
};

/** How long typing pauses before the password is checked. */
export const STRENGTH_DELAY_MS = 300;

/**
 * How guessable `password` is for its owner, by the rule the server applies to a new password
 * (contract's password-strength.ts): checked when typing pauses; undefined while the field is
 * empty or until the first check. The rule and its dictionaries (about 1 MB) load on the first
 * check, never with a screen.
 */
export function usePasswordStrength(
  password: string,
  owner: PasswordOwner,
): PasswordStrength | undefined {
  const [checked, setChecked] = useState<PasswordStrength>();
  const { email, name, phoneNumber } = owner;
  useEffect(() => {
    if (!password) return;
    let current = true;
    const timer = setTimeout(() => {
      void import('@master-admin/contract/password-strength')
        .then((rule) => rule.passwordStrength(password, { email, name, phoneNumber }))
        .then((strength) => {
          if (current) setChecked(strength);
        });
    }, STRENGTH_DELAY_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [password, email, name, phoneNumber]);
  // While a new check runs, the last one stays shown: the hint does not flicker with each key.
  return password ? checked : undefined;
}

const COLORS = ['red', 'red', 'orange', 'teal', 'green'];

/**
 * A new password field's hint as it is typed: a meter under the input and, in its description
 * (below the input, where screen readers read it with the field), whether it is strong enough
 * or why not. Spread into a PasswordInput. The reason is left out while the field's `error` says
 * the same (a refused form), so no sentence is shown twice.
 */
export function usePasswordHint(
  password: string,
  owner: PasswordOwner,
  rule: string,
  error?: string,
) {
  const strength = usePasswordStrength(password, owner);
  const repeated = strength !== undefined && !strength.ok && strength.reason === error;
  const description: ReactNode =
    strength && !repeated ? (
      <>
        <Text span size="xs" display="block" c={strength.ok ? 'teal.8' : 'orange.9'} fw={500}>
          {strength.ok ? 'Strong enough.' : strength.reason}
        </Text>
        {rule}
      </>
    ) : (
      rule
    );
  return {
    description,
    inputWrapperOrder: ['label', 'input', 'description', 'error'] as (
      'label' | 'input' | 'description' | 'error'
    )[],
    inputContainer: (input: ReactNode) => (
      <>
        {input}
        <Progress
          mt={6}
          mb={4}
          size={4}
          value={strength ? (strength.score + 1) * 20 : 0}
          color={COLORS[strength?.score ?? 0]}
          aria-hidden
          // Its place is kept while the field is empty, so nothing below moves as typing starts.
          style={{ visibility: strength ? 'visible' : 'hidden' }}
        />
      </>
    ),
  };
}
