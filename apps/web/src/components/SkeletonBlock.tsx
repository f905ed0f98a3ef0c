import classes from './SkeletonBlock.module.css';

/**
 * A loading placeholder: a block `w` wide and `h` high (a line of text's height when `h` is not
 * given). One plain element, cheap enough for a page of loading rows.
 */
export function SkeletonBlock(props: {
  w?: number | string;
  h?: number | string;
  ml?: 'auto';
  className?: string;
}) {
  return (
    <span
      aria-hidden
      className={`${classes.block}${props.h === undefined ? ` ${classes.line}` : ''}${props.className ? ` ${props.className}` : ''}`}
      style={{ width: props.w, height: props.h, marginLeft: props.ml }}
    />
  );
}
