import { Suspense, lazy, type ComponentProps } from 'react';
import { Input, Skeleton } from '@mantine/core';
import type { RichTextField as Field } from './RichTextField';

const RichTextField = lazy(() =>
  import('./RichTextField').then((m) => ({ default: m.RichTextField })),
);

/**
 * The rich-text field, loaded when a form first shows it: the editor (tiptap and ProseMirror) is
 * most of the weight of the screens that use it, and lists and detail screens do without it.
 */
export function LazyRichTextField(props: ComponentProps<typeof Field>) {
  return (
    <Suspense
      fallback={
        <Input.Wrapper
          label={props.label}
          required={props.required}
          description={props.description}
        >
          <Skeleton
            h={250}
            mt={4}
            radius="sm"
            role="status"
            aria-label={`Loading the ${props.label} editor`}
          />
        </Input.Wrapper>
      }
    >
      <RichTextField {...props} />
    </Suspense>
  );
}
