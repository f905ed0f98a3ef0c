import { useEffect, useState, type ReactElement, type ReactNode, type RefObject } from 'react';
import { Menu } from '@mantine/core';

/** What the plain button gets before the menu exists: the menu's ARIA and the click. */
export type LazyMenuTargetProps = {
  'aria-haspopup': 'menu';
  'aria-expanded': false;
  onClick: () => void;
};

/**
 * A menu that costs a plain button until it is first opened. A Mantine Menu per row (its
 * floating-position hooks, contexts and target wrappers) was most of a list's render time;
 * this renders the button alone and mounts the Menu on the first click, then keeps it.
 * `target` draws the button with `ref={buttonRef}`: it is called with props to spread before the
 * menu exists, and with none inside `Menu.Target` once it does.
 */
export function LazyMenu(props: {
  target: (lazy?: LazyMenuTargetProps) => ReactElement;
  /** The dropdown's content: Menu.Item, Menu.Label… */
  children: ReactNode;
  position: 'bottom-end' | 'bottom-start';
  /** The ref `target` puts on its button, to move focus to it. */
  buttonRef: RefObject<HTMLButtonElement | null>;
}) {
  const [mounted, setMounted] = useState(false);
  const [opened, setOpened] = useState(false);
  const button = props.buttonRef;
  // The Menu's button replaces the plain one: focus it first, then open, so the Menu records it
  // as the element to give focus back to when it closes (as when it had been there all along).
  useEffect(() => {
    if (!mounted) return;
    button.current?.focus({ preventScroll: true });
    queueMicrotask(() => setOpened(true));
  }, [mounted, button]);

  if (!mounted)
    return props.target({
      'aria-haspopup': 'menu',
      'aria-expanded': false,
      onClick: () => setMounted(true),
    });
  return (
    <Menu
      position={props.position}
      withinPortal
      shadow="md"
      returnFocus
      opened={opened}
      onChange={setOpened}
    >
      <Menu.Target>{props.target()}</Menu.Target>
      <Menu.Dropdown>{props.children}</Menu.Dropdown>
    </Menu>
  );
}
