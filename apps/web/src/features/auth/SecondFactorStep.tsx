import { Button } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import {
  MESSAGES,
  PATHS,
  loginChallenge,
  loginResponse,
  type LoginChallenge,
  type LoginResponse,
  type SecondFactorMethod,
} from '@master-admin/contract';
import { ApiError, api } from '../../lib/api';
import { ProofForm } from '../../components/ProofForm';
import { signInError } from './sign-in-error';

/** A password sign-in's answer that is not a token: the challenge of the second step. */
export function readChallenge(answer: unknown): LoginChallenge {
  const parsed = loginChallenge.safeParse(answer);
  if (!parsed.success) throw new ApiError(MESSAGES.invalidResponse);
  return parsed.data;
}

const CODE_METHODS = ['totp', 'recovery'] as const;

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
  const { passkey } = props;
  // The app first: its code is at hand; a recovery code is for when it is not.
  const methods = CODE_METHODS.filter((m) => props.methods.includes(m));
  return (
    <ProofForm
      methods={methods}
      prove={async (proof) => {
        // A sign-in's second step offers codes only: the password was its first.
        if (proof.method === 'password') return;
        const result = await api.json('POST', PATHS.loginVerify, loginResponse, {
          challenge: props.challenge,
          method: proof.method,
          code: proof.code,
        });
        await props.onSignedIn(result);
      }}
      passkey={passkey && (async () => props.onSignedIn(await passkey()))}
      failureText={signInError}
      onRefused={(err) => {
        if (!(err instanceof ApiError) || err.message !== MESSAGES.challengeExpired) return false;
        props.onBack(err.message);
        return true;
      }}
      submitLabel="Verify"
      nothingToUse="This account signs in with a passkey, and this browser cannot use passkeys. Try another browser or device."
      footer={(pending) => (
        <Button
          variant="subtle"
          color="gray"
          leftSection={<IconArrowLeft size={16} />}
          onClick={() => props.onBack()}
          disabled={pending}
          style={{ alignSelf: 'center' }}
        >
          Back
        </Button>
      )}
    />
  );
}
