import { useEffect, useEffectEvent, useState } from 'react';
import { CloseButton, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconSearch } from '@tabler/icons-react';

export const SEARCH_DEBOUNCE_MS = 300;

/** A search box that reports its text once typing pauses. */
export function SearchInput(props: {
  value: string;
  onChange: (value: string) => void;
  placeholder?: string;
  label?: string;
}) {
  const { value, onChange } = props;
  const [text, setText] = useState(value);
  const [debounced] = useDebouncedValue(text, SEARCH_DEBOUNCE_MS);

  // The URL may change under us (back button, clear filters): follow it, during render as React
  // advises for state derived from a prop.
  const [shown, setShown] = useState(value);
  if (value !== shown) {
    setShown(value);
    setText(value);
  }
  // Only a new debounced value triggers a search.
  const search = useEffectEvent((text: string) => {
    if (text.trim() !== value) onChange(text);
  });
  useEffect(() => search(debounced), [debounced]);

  return (
    <TextInput
      aria-label={props.label ?? 'Search'}
      placeholder={props.placeholder ?? 'Search'}
      leftSection={<IconSearch size={16} />}
      value={text}
      onChange={(e) => setText(e.currentTarget.value)}
      rightSection={
        text ? (
          <CloseButton
            aria-label="Clear search"
            onClick={() => {
              setText('');
              onChange('');
            }}
          />
        ) : null
      }
      miw={220}
      style={{ flex: 1, maxWidth: 360 }}
    />
  );
}
