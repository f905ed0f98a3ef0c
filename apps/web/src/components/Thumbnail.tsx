import { useRef, useState } from 'react';
import { Box, Image, Modal, UnstyledButton } from '@mantine/core';
import { SkeletonBlock } from './SkeletonBlock';

/** The list-size variant of a stored image (the server makes one beside every image). */
export function thumbUrl(url: string): string {
  return url.replace(/\.webp$/, '.thumb.webp');
}

/** A poster's shape, width over height (4:5, the demo's and a phone screen's). */
export const POSTER_RATIO = 0.8;

type ThumbnailBox = {
  /** The box's height in pixels (56 when not given). */
  size?: number;
  /** The box's width over its height (1 when not given): a banner's is 3. */
  ratio?: number;
};

function boxOf(props: ThumbnailBox) {
  const h = props.size ?? 56;
  return { w: Math.round(h * (props.ratio ?? 1)), h };
}

/**
 * A small image in a list row, in a box of a fixed size (`size` high, `ratio` times as wide) that
 * it fits inside without cropping: the box is there before the lazily loaded image arrives, so the
 * row does not grow when it does. An image missing keeps its empty box (the rows stay even).
 * Clicking it shows the full image.
 */
export function Thumbnail(props: { src: string | null; alt: string } & ThumbnailBox) {
  const [open, setOpen] = useState(false);
  const button = useRef<HTMLButtonElement>(null);
  const close = () => {
    setOpen(false);
    // Unmounted at once, the Modal cannot hand focus back itself.
    button.current?.focus();
  };
  const box = boxOf(props);
  if (!props.src) return <Box {...box} />;
  return (
    <>
      <UnstyledButton
        ref={button}
        onClick={() => setOpen(true)}
        aria-label={`Show ${props.alt}`}
        display="block"
        {...box}
      >
        <Image
          src={thumbUrl(props.src)}
          alt={props.alt}
          w="100%"
          h="100%"
          fit="contain"
          radius="sm"
          loading="lazy"
        />
      </UnstyledButton>
      {/* Mounted only while open: a closed Modal in each of a page's rows cost the list's first
          render a good part of its time. */}
      {open && (
        <Modal opened onClose={close} title={props.alt} size="auto" centered>
          <Image src={props.src} alt={props.alt} maw="80vw" mah="80vh" fit="contain" />
        </Modal>
      )}
    </>
  );
}

/** A thumbnail's place while its row loads (DataTable's column `skeleton`). */
export function ThumbnailSkeleton(props: ThumbnailBox) {
  const { w, h } = boxOf(props);
  return <SkeletonBlock w={w} h={h} />;
}
