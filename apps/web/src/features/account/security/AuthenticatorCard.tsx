import { useState } from 'react';
import { Button, Group, Skeleton, Text } from '@mantine/core';
import { IconDeviceMobileMessage } from '@tabler/icons-react';
import {
  RECOVERY_CODE_COUNT,
  TOTP_DIGITS,
  type MyFactors,
  type TotpSetup,
} from '@master-admin/contract';
import { confirmAction } from '../../../components/confirm';
import { useNewRecoveryCodes, useStartTotp } from './api';
import { FactorCard } from './FactorCard';
import { RecoveryCodesDialog, TotpRemoveDialog, TotpSetupDialog } from './AuthenticatorDialogs';

/** Recovery codes this few or fewer left: the card says how to get new ones. */
const FEW_CODES = 3;

/** The authenticator app: on or off, set it up, remove it; the recovery codes left. */
export function AuthenticatorCard(props: { factors: MyFactors | undefined }) {
  const { factors } = props;
  const start = useStartTotp();
  const renew = useNewRecoveryCodes();
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
            {factors.recoveryCodesLeft <= FEW_CODES && ' Make new ones before they run out.'}
          </Text>
          <Group gap="sm">
            <Button
              variant="default"
              loading={renew.isPending}
              onClick={() =>
                confirmAction({
                  title: 'Make new recovery codes?',
                  message: `You get ${RECOVERY_CODE_COUNT} new codes to save; every code you have now stops working.`,
                  confirmLabel: 'Make new codes',
                  onConfirm: () =>
                    renew.mutate(undefined, {
                      onSuccess: (result) => setCodes(result.recoveryCodes),
                    }),
                })
              }
            >
              New recovery codes
            </Button>
            <Button variant="default" color="red" onClick={() => setRemoving(true)}>
              Remove
            </Button>
          </Group>
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
