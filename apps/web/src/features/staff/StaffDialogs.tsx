import { useWatch } from 'react-hook-form';
import {
  PASSWORD_MAX,
  PASSWORD_MIN,
  staffCreateBody,
  staffEditForm,
  staffPasswordBody,
  type Staff,
} from '@master-admin/contract';
import { FormDialog } from '../../components/FormDialog';
import { NewPasswordFormField, TextFormField } from '../../components/FormFields';
import { StatusDialog } from '../../components/StatusDialog';
import { confirmAction, confirmDelete } from '../../components/confirm';
import {
  useCreateStaff,
  useDeleteStaff,
  useResetStaffFactors,
  useStaffPassword,
  useStaffStatus,
  useUpdateStaff,
} from './api';
import { defined } from '../../lib/defined';

export type StaffDialog =
  { kind: 'create' } | { kind: 'edit' | 'password' | 'status'; staff: Staff } | null;

export const staffName = (s: Staff) => s.staffDetail[0]?.name ?? s.staffDetail[0]?.email ?? '';

/** Name, email, phone and job title, in the dialog's form (FormDialog provides it). */
function DetailInputs() {
  return (
    <>
      <TextFormField name="name" label="Name" required data-autofocus autoComplete="off" />
      <TextFormField
        name="email"
        label="Email"
        description="Signs in with it"
        required
        type="email"
        autoComplete="off"
      />
      <TextFormField
        name="phoneNumber"
        label="Phone number"
        description="Digits, with an optional leading +; signs in with it too"
        required
        type="tel"
        autoComplete="off"
      />
      <TextFormField
        name="roles"
        label="Job title"
        description="Shown in the staff list, e.g. Editor; what the account may do is set on its permissions"
        required
      />
    </>
  );
}

/** A new staff member's password, checked against the name, email and phone typed above it. */
function FirstPasswordField() {
  const [name, email, phoneNumber] = useWatch({ name: ['name', 'email', 'phoneNumber'] }) as [
    string,
    string,
    string,
  ];
  return (
    <NewPasswordFormField
      name="password"
      label="Password"
      description={`${PASSWORD_MIN} to ${PASSWORD_MAX} characters, not easy to guess`}
      owner={{ name, email, phoneNumber }}
      required
      autoComplete="new-password"
    />
  );
}

/** The staff screens' dialogs: new, edit, password, status. */
export function StaffDialogs(props: { dialog: StaffDialog; onClose: () => void }) {
  const { dialog, onClose } = props;
  const create = useCreateStaff();
  const update = useUpdateStaff();
  const password = useStaffPassword();
  const status = useStaffStatus();
  const editing = dialog?.kind === 'edit' ? dialog.staff : undefined;
  const selected = dialog && dialog.kind !== 'create' ? dialog.staff : undefined;

  return (
    <>
      <FormDialog
        opened={dialog?.kind === 'create'}
        onClose={onClose}
        title="New staff member"
        schema={staffCreateBody}
        defaultValues={{ name: '', email: '', phoneNumber: '', password: '', roles: '' }}
        submitLabel="Create"
        onSubmit={(values) => create.mutateAsync(values)}
      >
        {() => (
          <>
            <DetailInputs />
            <FirstPasswordField />
          </>
        )}
      </FormDialog>

      <FormDialog
        opened={dialog?.kind === 'edit'}
        onClose={onClose}
        presence={
          editing ? { area: 'staff', id: editing.id, label: staffName(editing) } : undefined
        }
        title={`Edit ${editing ? staffName(editing) : ''}`}
        schema={staffEditForm}
        defaultValues={{
          name: editing?.staffDetail[0]?.name ?? '',
          email: editing?.staffDetail[0]?.email ?? '',
          phoneNumber: editing?.phoneNumber ?? '',
          roles: editing?.roles ?? '',
        }}
        submitLabel="Save"
        version={editing?.version}
        onSubmit={(values, { ifMatch }) =>
          update.mutateAsync({ id: defined(editing).id, ifMatch, ...values })
        }
      >
        {() => <DetailInputs />}
      </FormDialog>

      <FormDialog
        opened={dialog?.kind === 'password'}
        onClose={onClose}
        presence={
          selected ? { area: 'staff', id: selected.id, label: staffName(selected) } : undefined
        }
        title={`New password for ${selected ? staffName(selected) : ''}`}
        schema={staffPasswordBody}
        defaultValues={{ password: '' }}
        submitLabel="Set password"
        onSubmit={(values) => password.mutateAsync({ id: defined(selected).id, ...values })}
      >
        {() => (
          <NewPasswordFormField
            name="password"
            label="New password"
            description={`${PASSWORD_MIN} to ${PASSWORD_MAX} characters, not easy to guess. The staff member is signed out everywhere and signs in again with it.`}
            owner={{
              name: selected?.staffDetail[0]?.name,
              email: selected?.staffDetail[0]?.email,
              phoneNumber: selected?.phoneNumber,
            }}
            required
            data-autofocus
            autoComplete="new-password"
          />
        )}
      </FormDialog>

      <StatusDialog
        opened={dialog?.kind === 'status'}
        onClose={onClose}
        subject={selected ? staffName(selected) : ''}
        current={selected?.status}
        version={selected?.version}
        onSubmit={(value, ifMatch) =>
          status.mutateAsync({ id: defined(selected).id, status: value, ifMatch })
        }
      />
    </>
  );
}

/** Asks, then deletes (the account becomes DELETED, is signed out and cannot sign in). */
/**
 * Asks before removing a staff member's second factors: the remedy when someone else added one
 * to their account (a stolen session), or they lost their phone or passkey.
 */
export function useConfirmResetFactors() {
  const reset = useResetStaffFactors();
  return (staff: Staff) =>
    confirmAction({
      title: 'Reset second factors?',
      message: `${staffName(staff)}’s authenticator app, recovery codes and passkeys are removed, and every session of theirs ends. They sign in again with their password, and set up a second factor anew where you require one.`,
      confirmLabel: 'Reset second factors',
      danger: true,
      onConfirm: () => reset.mutate(staff.id),
    });
}

export function useConfirmDeleteStaff(onDeleted?: () => void) {
  const remove = useDeleteStaff();
  return (staff: Staff) =>
    confirmDelete({
      title: 'Delete this staff member?',
      message: `${staffName(staff)} will be signed out at once and can no longer sign in. The email and phone number become free for a new account.`,
      onConfirm: () =>
        remove.mutate({ id: staff.id, ifMatch: staff.version }, { onSuccess: () => onDeleted?.() }),
    });
}
