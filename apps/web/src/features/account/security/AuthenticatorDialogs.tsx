import { useEffect, useState } from 'react';
import {
  Button,
  Center,
  Code,
  CopyButton,
  Group,
  Image,
  List,
  Modal,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { IconCheck, IconCopy, IconDownload } from '@tabler/icons-react';
import { TOTP_DIGITS, codeBody, type TotpSetup } from '@master-admin/contract';
import { FormDialog } from '../../../components/FormDialog';
import { FormController } from '../../../components/FormFields';
import { useConfirmTotp, useRemoveTotp } from './api';

const QR_SIZE = 200;

/** The app's QR code (qrcode, loaded with the dialog's first opening), drawn as an SVG data URL. */
function QrCode(props: { url: string }) {
  const [image, setImage] = useState<{ url: string; src: string }>();
  useEffect(() => {
    let current = true;
    void import('qrcode')
      .then((qr) => qr.toString(props.url, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' }))
      .then((svg) => {
        if (current) {
          setImage({ url: props.url, src: `data:image/svg+xml;utf8,${encodeURIComponent(svg)}` });
        }
      });
    return () => {
      current = false;
    };
  }, [props.url]);
  return (
    <Center>
      {image?.url === props.url ? (
        <Image
          src={image.src}
          w={QR_SIZE}
          h={QR_SIZE}
          bg="white"
          p={4}
          radius="sm"
          alt="QR code to scan with your authenticator app"
        />
      ) : (
        <Skeleton w={QR_SIZE} h={QR_SIZE} />
      )}
    </Center>
  );
}

/** A one-time code typed into a dialog's form (its field `code`). */
function CodeField(props: { label: string; description?: string; totpOnly?: boolean }) {
  return (
    <FormController
      name="code"
      label={props.label}
      render={({ field, fieldState, label }) => (
        <TextInput
          {...field}
          value={typeof field.value === 'string' ? field.value : ''}
          label={label}
          description={props.description}
          error={fieldState.error?.message}
          autoComplete="one-time-code"
          inputMode={props.totpOnly ? 'numeric' : 'text'}
          autoCapitalize="none"
          spellCheck={false}
          required
          data-autofocus
        />
      )}
    />
  );
}

/** "A1B2-C3D4" grouped in fours, as the app's secret is read out and typed. */
const grouped = (secret: string) => secret.replace(/(.{4})(?=.)/g, '$1 ');

/**
 * Setting up the authenticator app: scan the QR code (or type the secret), then confirm with a
 * code the app shows; `onConfirmed` receives the recovery codes, shown once.
 */
export function TotpSetupDialog(props: {
  setup: TotpSetup | undefined;
  onClose: () => void;
  onConfirmed: (recoveryCodes: string[]) => void;
}) {
  const confirm = useConfirmTotp();
  const { setup } = props;
  return (
    <FormDialog
      opened={setup !== undefined}
      onClose={props.onClose}
      title="Set up an authenticator app"
      schema={codeBody}
      defaultValues={{ code: '' }}
      submitLabel="Turn on"
      onSubmit={async ({ code }) => {
        const result = await confirm.mutateAsync(code);
        props.onConfirmed(result.recoveryCodes);
      }}
    >
      {() => (
        <>
          <List type="ordered" size="sm" spacing={4}>
            <List.Item>
              Open an authenticator app (Google Authenticator, Microsoft Authenticator, 1Password,
              Authy…) and add an account.
            </List.Item>
            <List.Item>Scan this QR code, or type the key below it.</List.Item>
            <List.Item>Type the {TOTP_DIGITS}-digit code the app then shows.</List.Item>
          </List>
          {setup && <QrCode url={setup.otpauthUrl} />}
          {setup && (
            <Stack gap={4} align="center">
              <Text size="xs" c="dimmed">
                Or type this key
              </Text>
              <Group gap="xs" justify="center">
                <Code fz="sm" style={{ overflowWrap: 'anywhere' }}>
                  {grouped(setup.secret)}
                </Code>
                <CopyButton value={setup.secret}>
                  {({ copied, copy }) => (
                    <Button
                      size="compact-xs"
                      variant="subtle"
                      onClick={copy}
                      leftSection={copied ? <IconCheck size={14} /> : <IconCopy size={14} />}
                    >
                      {copied ? 'Copied' : 'Copy'}
                    </Button>
                  )}
                </CopyButton>
              </Group>
            </Stack>
          )}
          <CodeField label="Code from the app" totpOnly />
        </>
      )}
    </FormDialog>
  );
}

/** Saves the recovery codes as a text file. */
function download(codes: string[]) {
  const text = [
    'Master Admin recovery codes',
    'Each code signs you in once, in place of a code from your authenticator app.',
    '',
    ...codes,
    '',
  ].join('\n');
  const link = document.createElement('a');
  link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
  link.download = 'master-admin-recovery-codes.txt';
  document.body.append(link);
  link.click();
  link.remove();
  // The download has taken its copy once the click is handled.
  setTimeout(() => URL.revokeObjectURL(link.href), 0);
}

/**
 * The recovery codes, shown this once (the server keeps only their hashes): copy or download
 * them; only "I have saved them" closes the dialog, so they are not lost to a stray click.
 */
export function RecoveryCodesDialog(props: { codes: string[] | undefined; onClose: () => void }) {
  const codes = props.codes ?? [];
  return (
    <Modal
      opened={props.codes !== undefined}
      onClose={props.onClose}
      title="Save your recovery codes"
      centered
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
    >
      <Stack>
        <Text size="sm">
          If you lose your phone, each of these codes signs you in once in place of a code from the
          app. Keep them somewhere safe, such as a password manager.{' '}
          <Text span fw={600} inherit>
            They are not shown again.
          </Text>
        </Text>
        <SimpleGrid cols={2} spacing="xs" component="ul" p={0} m={0} aria-label="Recovery codes">
          {codes.map((code) => (
            <Code key={code} component="li" block ta="center" fz="sm" style={{ listStyle: 'none' }}>
              {code}
            </Code>
          ))}
        </SimpleGrid>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
          <CopyButton value={codes.join('\n')}>
            {({ copied, copy }) => (
              <Button
                variant="default"
                onClick={copy}
                leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
              >
                {copied ? 'Copied' : 'Copy'}
              </Button>
            )}
          </CopyButton>
          <Button
            variant="default"
            onClick={() => download(codes)}
            leftSection={<IconDownload size={16} />}
          >
            Download .txt
          </Button>
        </SimpleGrid>
        <Button onClick={props.onClose}>I have saved them</Button>
      </Stack>
    </Modal>
  );
}

/** Turning the app off: a code it shows, or a recovery code, proves the person holds it. */
export function TotpRemoveDialog(props: { opened: boolean; onClose: () => void }) {
  const remove = useRemoveTotp();
  return (
    <FormDialog
      opened={props.opened}
      onClose={props.onClose}
      title="Remove the authenticator app"
      schema={codeBody}
      defaultValues={{ code: '' }}
      submitLabel="Remove"
      onSubmit={({ code }) => remove.mutateAsync(code)}
    >
      {() => (
        <>
          <Text size="sm">
            Sign-in will no longer ask for a code from the app, and your recovery codes stop
            working.
          </Text>
          <CodeField
            label="Code from the app, or a recovery code"
            description="Proves it is you holding the app"
          />
        </>
      )}
    </FormDialog>
  );
}
