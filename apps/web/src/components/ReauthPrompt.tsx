import { useEffect, useRef, useState } from 'react';
import { Button, Modal, Text } from '@mantine/core';
import { PATHS, reauthAnswer } from '@master-admin/contract';
import { api, errorText, setReauthHandler } from '../lib/api';
import { useMyFactors } from '../lib/factors';
import { loadWebAuthn, passkeysSupported } from '../lib/passkeys';
import { useProfile } from '../lib/profile';
import { ProofForm, type Proof, type TypedProof } from './ProofForm';

/**
 * "Confirm it's you", asked in place (API.md "Proof of presence"): a change of how the account
 * signs in (a factor, a passkey, recovery codes, other sessions, a staff member's password, email
 * or factors) answered 403 `reauth` because the session proved itself too long ago. The person
 * proves with the password, a code or a passkey, and the call is sent again (lib/api.ts); closing
 * the prompt leaves everything as it was. Mounted once, in the signed-in shell.
 */
export function ReauthPrompt() {
  const [opened, setOpened] = useState(false);
  // Each prompt starts blank: a new form per opening.
  const [round, setRound] = useState(0);
  const answer = useRef<(proved: boolean) => void>(undefined);
  const factors = useMyFactors().data;
  const username = useProfile(opened).data?.email ?? undefined;

  useEffect(() => {
    setReauthHandler(
      () =>
        new Promise<boolean>((resolve) => {
          answer.current = resolve;
          setRound((n) => n + 1);
          setOpened(true);
        }),
    );
    return () => setReauthHandler(undefined);
  }, []);

  const close = (proved: boolean) => {
    setOpened(false);
    answer.current?.(proved);
    answer.current = undefined;
  };

  const methods: TypedProof[] = ['password'];
  if (factors?.totp) methods.push('totp');
  if (factors && factors.recoveryCodesLeft > 0) methods.push('recovery');
  const passkey =
    factors && factors.passkeys > 0 && passkeysSupported()
      ? async () => {
          await (await loadWebAuthn()).proveWithPasskey();
          close(true);
        }
      : undefined;

  const prove = async (proof: Proof) => {
    await api.json(
      'POST',
      PATHS.reauth,
      reauthAnswer,
      proof.method === 'password' ? { password: proof.password } : proof,
    );
    close(true);
  };

  return (
    <Modal
      opened={opened}
      onClose={() => close(false)}
      title="Confirm it’s you"
      centered
      zIndex={400}
    >
      <Text size="sm" mb="md">
        This changes how your account signs in, so it needs you to confirm it’s you first. Nothing
        else is asked for the next five minutes.
      </Text>
      <ProofForm
        key={round}
        methods={methods}
        prove={prove}
        passkey={passkey}
        failureText={(err) => errorText(err)}
        submitLabel="Confirm"
        nothingToUse="This account has no way to confirm here."
        username={username}
        footer={(pending) => (
          <Button
            variant="subtle"
            color="gray"
            onClick={() => close(false)}
            disabled={pending}
            style={{ alignSelf: 'center' }}
          >
            Cancel
          </Button>
        )}
      />
    </Modal>
  );
}
