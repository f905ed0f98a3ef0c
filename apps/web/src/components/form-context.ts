import { createContext, useContext, useEffect } from 'react';
import type { z } from 'zod';

/** What the surrounding FormDialog tells its fields: its schema, and where to note their labels. */
export type FormDialogContextValue = {
  schema: z.ZodType;
  /** Notes the label a field shows, so a server message naming the field can use it; returns the undo. */
  registerLabel: (name: string, label: string) => () => void;
  /** Notes that the form has a file field (drafts keep no files, and say so); returns the undo. */
  registerFile: () => () => void;
};

export const FormDialogContext = createContext<FormDialogContextValue | null>(null);

/**
 * For a field inside a FormDialog: notes its label (error toasts name the field as the form
 * labels it) and answers the most characters its schema takes, if it says.
 */
export function useFormDialogField(name: string, label: string): { maxLength?: number } {
  const ctx = useContext(FormDialogContext);
  const register = ctx?.registerLabel;
  useEffect(() => register?.(name, label), [register, name, label]);
  return { maxLength: ctx ? maxLengthOf(ctx.schema, name) : undefined };
}

type Def = { type: string; in?: z.ZodType; out?: z.ZodType; innerType?: z.ZodType };
const defOf = (schema: z.ZodType) => schema._zod.def as unknown as Def;

/** The schema a value finally meets, past optional, default, preprocess and transform wrappers. */
function unwrap(schema: z.ZodType | undefined): z.ZodType | undefined {
  let s = schema;
  for (let i = 0; s && i < 20; i++) {
    const def = defOf(s);
    if (def.type === 'pipe') {
      s = def.out && defOf(def.out).type !== 'transform' ? def.out : def.in;
    } else if (def.innerType) {
      s = def.innerType;
    } else {
      return s;
    }
  }
  return s;
}

/** The `.max()` of the string schema at `path` (dot separated) in an object schema, if any. */
export function maxLengthOf(schema: z.ZodType, path: string): number | undefined {
  let s = unwrap(schema);
  for (const key of path.split('.')) {
    if (!s || defOf(s).type !== 'object') return undefined;
    s = unwrap(((s as z.ZodObject).shape as Record<string, z.ZodType | undefined>)[key]);
  }
  if (!s || defOf(s).type !== 'string') return undefined;
  return (s as z.ZodString).maxLength ?? undefined;
}

/** For a file field inside a FormDialog: notes that the form has one (its drafts leave it out). */
export function useFormDialogFile(): void {
  const register = useContext(FormDialogContext)?.registerFile;
  useEffect(() => register?.(), [register]);
}
