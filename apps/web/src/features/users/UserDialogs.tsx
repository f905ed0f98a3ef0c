import { useState } from 'react';
import { useNavigate } from 'react-router';
import { z } from 'zod';
import { dateLimitBody, userCreateBody, type User } from '@master-admin/contract';
import { DateFormField } from '../../components/DateFormField';
import { FormDialog } from '../../components/FormDialog';
import { ImageFormField, MasterAppFormField, TextFormField } from '../../components/FormFields';
import type { RowAction } from '../../components/RowActions';
import { StatusDialog } from '../../components/StatusDialog';
import { confirmDelete } from '../../components/confirm';
import { useGrants } from '../../lib/permissions';
import {
  useChangeBanner,
  useChangeDateLimit,
  useChangeUserStatus,
  useDeleteUser,
  useEditUser,
  useRegisterUser,
} from './api';
import { defined } from '../../lib/defined';

/** A user as dialogs and messages name it. */
export const userName = (u: Pick<User, 'userDetail' | 'phoneNumber'>) =>
  u.userDetail.name ?? u.phoneNumber;

/** The form: the contract's fields, the app as the picker holds it (a string). */
const userForm = userCreateBody.extend({
  masterAppId: z.string().min(1, { error: 'Choose a master app' }),
});
const editForm = userForm.omit({ dateLimit: true });
const bannerForm = z.object({ file: z.instanceof(File, { error: 'Choose an image' }) });

function TextFields() {
  const fields = [
    ['name', 'Name', true, 'As the user gave it'],
    ['phoneNumber', 'Phone number', true, 'Digits, with an optional leading +; unique in the app'],
    ['email', 'Email', false, undefined],
    ['designation', 'Designation', false, 'Shown on the user’s posters, e.g. “Shop owner”'],
    ['adminAssignName', 'Name given by the admin', false, 'How the back-office knows the user'],
  ] as const;
  return (
    <>
      {fields.map(([name, label, required, description]) => (
        <TextFormField
          key={name}
          name={name}
          label={label}
          description={description}
          required={required}
          type={name === 'email' ? 'email' : name === 'phoneNumber' ? 'tel' : 'text'}
        />
      ))}
    </>
  );
}

/** "New user": who it is, which app, and until when the account may be used. */
export function CreateUserDialog(props: {
  opened: boolean;
  onClose: () => void;
  masterAppId: string;
}) {
  const register = useRegisterUser();
  return (
    <FormDialog
      opened={props.opened}
      onClose={props.onClose}
      title="New user"
      long
      draft={{ form: 'user' }}
      schema={userForm}
      defaultValues={{
        name: '',
        phoneNumber: '',
        email: '',
        designation: '',
        adminAssignName: '',
        masterAppId: props.masterAppId,
        dateLimit: '',
      }}
      submitLabel="Create"
      onSubmit={(v) => register.mutateAsync({ ...v, masterAppId: Number(v.masterAppId) })}
    >
      {() => (
        <>
          <TextFields />
          <MasterAppFormField description="The app the user belongs to." />
          <DateFormField
            name="dateLimit"
            label="Date limit"
            description="The last day the user may use the app; leave empty for no limit."
          />
        </>
      )}
    </FormDialog>
  );
}

export type UserDialog = {
  kind: 'edit' | 'dateLimit' | 'top' | 'bottom' | 'status';
  user: User;
} | null;

/** The edit form's values for a user as the list shows it. */
function editValues(user: User | undefined) {
  const detail = user?.userDetail;
  return {
    name: detail?.name ?? '',
    phoneNumber: user?.phoneNumber ?? '',
    email: detail?.email ?? '',
    designation: detail?.designation ?? '',
    adminAssignName: detail?.adminAssignName ?? '',
    masterAppId: user ? String(user.masterAppId) : '',
  };
}

/** The dialogs a user's row (or page) opens: details, date limit, banners, status. */
export function UserDialogs(props: { dialog: UserDialog; onClose: () => void }) {
  const edit = useEditUser();
  const changeDateLimit = useChangeDateLimit();
  const changeBanner = useChangeBanner();
  const changeStatus = useChangeUserStatus();
  const [progress, setProgress] = useState<number>();
  const { dialog } = props;
  const user = dialog?.user;
  const name = user ? userName(user) : '';
  const close = () => {
    setProgress(undefined);
    props.onClose();
  };

  return (
    <>
      <FormDialog
        opened={dialog?.kind === 'edit'}
        onClose={close}
        presence={user ? { area: 'users', id: user.id, label: name } : undefined}
        title={`Edit ${name}`}
        long
        draft={user && { form: 'user', id: user.id }}
        schema={editForm}
        defaultValues={editValues(user)}
        toValues={(row) => editValues(row as User)}
        submitLabel="Save"
        version={user?.version}
        onSubmit={(v, { ifMatch }) =>
          edit.mutateAsync({
            id: defined(user).id,
            ifMatch,
            ...v,
            masterAppId: Number(v.masterAppId),
          })
        }
      >
        {() => (
          <>
            <TextFields />
            <MasterAppFormField description="Moving a user keeps the phone number unique in the new app." />
          </>
        )}
      </FormDialog>

      <FormDialog
        opened={dialog?.kind === 'dateLimit'}
        onClose={close}
        presence={user ? { area: 'users', id: user.id, label: name } : undefined}
        title={`Date limit of ${name}`}
        schema={dateLimitBody}
        defaultValues={{ dateLimit: user?.dateLimit ?? '' }}
        submitLabel="Save"
        version={user?.version}
        onSubmit={(v, { ifMatch }) =>
          changeDateLimit.mutateAsync({ id: defined(user).id, ifMatch, dateLimit: v.dateLimit })
        }
      >
        {() => (
          <DateFormField
            name="dateLimit"
            label="Date limit"
            description="The last day the user may use the app; clear it for no limit."
          />
        )}
      </FormDialog>

      {(['top', 'bottom'] as const).map((which) => (
        <FormDialog
          key={which}
          opened={dialog?.kind === which}
          onClose={close}
          presence={user ? { area: 'users', id: user.id, label: name } : undefined}
          title={`${which === 'top' ? 'Top' : 'Bottom'} banner of ${name}`}
          schema={bannerForm}
          defaultValues={{}}
          submitLabel="Upload"
          version={user?.version}
          onSubmit={(v, { ifMatch }) =>
            changeBanner.mutateAsync({
              id: defined(user).id,
              ifMatch,
              which,
              file: v.file,
              onProgress: setProgress,
            })
          }
        >
          {() => (
            <ImageFormField
              name="file"
              label={`${which === 'top' ? 'Top' : 'Bottom'} banner`}
              required
              current={which === 'top' ? user?.userDetail?.top : user?.userDetail?.bottom}
              progress={progress}
            />
          )}
        </FormDialog>
      ))}

      <StatusDialog
        opened={dialog?.kind === 'status'}
        onClose={close}
        subject={name}
        current={user?.status}
        version={user?.version}
        onSubmit={(status, ifMatch) =>
          changeStatus.mutateAsync({ id: defined(user).id, status, ifMatch })
        }
      />
    </>
  );
}

/** A user's actions, each shown only with the right to do it. */
export function useUserActions(
  open: (dialog: UserDialog) => void,
  options: { page?: boolean } = {},
) {
  const remove = useDeleteUser();
  const grants = useGrants('users');
  const navigate = useNavigate();
  return (user: User): RowAction[] => [
    ...(options.page
      ? []
      : [{ label: 'Open', onClick: () => void navigate(`/users/${user.id}`) } as RowAction]),
    { label: 'Edit details', allowed: grants.update, onClick: () => open({ kind: 'edit', user }) },
    {
      label: 'Change date limit',
      allowed: grants.update,
      onClick: () => open({ kind: 'dateLimit', user }),
    },
    {
      label: user.userDetail.top ? 'Change top banner' : 'Add top banner',
      allowed: grants.update,
      onClick: () => open({ kind: 'top', user }),
    },
    {
      label: user.userDetail.bottom ? 'Change bottom banner' : 'Add bottom banner',
      allowed: grants.update,
      onClick: () => open({ kind: 'bottom', user }),
    },
    { label: 'Top images', onClick: () => void navigate(`/top/${user.id}`) },
    { label: 'Self images', onClick: () => void navigate(`/self/${user.id}`) },
    { label: 'Bottom images', onClick: () => void navigate(`/bottom/${user.id}`) },
    {
      label: 'Change status',
      allowed: grants.update,
      onClick: () => open({ kind: 'status', user }),
    },
    {
      label: 'Delete',
      danger: true,
      allowed: grants.delete && user.status !== 'DELETED',
      onClick: () =>
        confirmDelete({
          title: 'Delete this user?',
          message: `${userName(user)} (${user.phoneNumber}, ${user.masterApp.name}) will be marked DELETED and leave the list. Their images stay, so setting another status restores the account.`,
          onConfirm: () => remove.mutate({ id: user.id, ifMatch: user.version }),
        }),
    },
  ];
}
