/**
 * Fields bound to the surrounding dialog's form (FormDialog provides it), for the inputs several
 * areas' dialogs share.
 */
import { Controller, useFormContext } from 'react-hook-form';
import { ImageField } from './ImageField';
import { MasterAppSelect } from './MasterAppSelect';

/** An image to upload; `progress` is shown while the form is being sent with a file chosen. */
export function ImageFormField(props: {
  name: string;
  label: string;
  required?: boolean;
  /** The image already stored. */
  current?: string | null;
  progress?: number;
}) {
  const { control, formState } = useFormContext();
  return (
    <Controller
      control={control}
      name={props.name}
      render={({ field, fieldState }) => (
        <ImageField
          label={props.label}
          required={props.required}
          current={props.current}
          value={(field.value as File | undefined) ?? null}
          onChange={(file) => field.onChange(file ?? undefined)}
          error={fieldState.error?.message}
          progress={formState.isSubmitting && field.value ? props.progress : undefined}
          disabled={formState.isSubmitting}
        />
      )}
    />
  );
}

/** The master app a new row belongs to (its id as a string). */
export function MasterAppFormField(props: { name?: string; description?: string }) {
  const { control } = useFormContext();
  return (
    <Controller
      control={control}
      name={props.name ?? 'masterAppId'}
      render={({ field, fieldState }) => (
        <MasterAppSelect
          value={(field.value as string | undefined) ?? ''}
          onChange={field.onChange}
          required
          clearable={false}
          placeholder="Choose the app"
          description={props.description}
          error={fieldState.error?.message}
        />
      )}
    />
  );
}
