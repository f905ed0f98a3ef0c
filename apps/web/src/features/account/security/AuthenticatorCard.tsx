import { useState } from 'react';
import { Button, Skeleton, Text } from '@mantine/core';
import { IconDeviceMobileMessage } from '@tabler/icons-react';
import {
  RECOVERY_CODE_COUNT,
  TOTP_DIGITS,
  type MyFactors,
  type TotpSetup,
} from '@master-admin/contract';
import { useStartTotp } from './api';
import { FactorCard } from './FactorCard';
import { RecoveryCodesDialog, TotpRemoveDialog, TotpSetupDialog } from './AuthenticatorDialogs';

/** Recovery codes this few or fewer left: the card says how to get new ones. */
const FEW_CODES = 3;

/** The authenticator app: on or off, set it up, remove it; the recovery codes left. */
export function AuthenticatorCard(props: { factors: MyFactors | undefined }) {
  const { factors } = props;
  const start = useStartTotp();
  const [setup, setSetup] = useState<TotpSetup>();
  const [codes, setCodes] = useState<string[]>();
  const [removing, setRemoving] = useState(false);
  const on = factors?.totp === true;

  return (
    <FactorCard
      icon={<IconDeviceMobileMessage size={22} stroke={1.6} aria-hidden />}
      title="Authenticator app"
      badge={factors && { label: on ? 'On' : 'Off', color: on ? 'teal' : 'gray' }}
      description={`After your password, sign-in asks for the ${TOTP_DIGITS}-digit code an app on your phone shows.`}
    >
      {!factors ? (
        <Skeleton h={36} />
      ) : on ? (
        <>
          <Text
            size="sm"
            mb="sm"
            c={factors.recoveryCodesLeft <= FEW_CODES ? 'orange.9' : undefined}
          >
            {factors.recoveryCodesLeft} of {RECOVERY_CODE_COUNT} recovery codes left.
            {factors.recoveryCodesLeft <= FEW_CODES &&
              ' For new ones, remove the app and set it up again.'}
          </Text>
          <Button variant="default" color="red" onClick={() => setRemoving(true)}>
            Remove
          </Button>
        </>
      ) : (
        <Button
          loading={start.isPending}
          onClick={() => start.mutate(undefined, { onSuccess: (started) => setSetup(started) })}
        >
          Set up
        </Button>
      )}
      <TotpSetupDialog setup={setup} onClose={() => setSetup(undefined)} onConfirmed={setCodes} />
      <RecoveryCodesDialog codes={codes} onClose={() => setCodes(undefined)} />
      <TotpRemoveDialog opened={removing} onClose={() => setRemoving(false)} />
    </FactorCard>
  );
}
