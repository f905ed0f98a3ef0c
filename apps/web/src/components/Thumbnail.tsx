import { useState } from 'react';
import { Image, Modal, UnstyledButton } from '@mantine/core';

/** The list-size variant of a stored image (the server makes one beside every image). */
export function thumbUrl(url: string): string {
  return url.replace(/\.webp$/, '.thumb.webp');
}

/**
 * A small image in a list row, `size` pixels high and as wide as its shape needs (a 3:1 banner is
 * not cropped to a square), at most three times its height; clicking it shows the full image.
 */
export function Thumbnail(props: { src: string | null; alt: string; size?: number }) {
  const [open, setOpen] = useState(false);
  const size = props.size ?? 56;
  if (!props.src) return null;
  return (
    <>
      <UnstyledButton
        onClick={() => setOpen(true)}
        aria-label={`Show ${props.alt}`}
        display="block"
        miw={size}
      >
        <Image
          src={thumbUrl(props.src)}
          alt={props.alt}
          w="auto"
          h={size}
          maw={size * 3}
          fit="contain"
          radius="sm"
          loading="lazy"
        />
      </UnstyledButton>
      <Modal opened={open} onClose={() => setOpen(false)} title={props.alt} size="auto" centered>
        <Image src={props.src} alt={props.alt} maw="80vw" mah="80vh" fit="contain" />
      </Modal>
    </>
  );
}
