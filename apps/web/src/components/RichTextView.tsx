import { Text, Typography, type TypographyProps } from '@mantine/core';

/**
 * Stored rich text (a blog's or a page's `desc`) shown as formatted text.
 *
 * The HTML is inserted as it is (`dangerouslySetInnerHTML`) only because the server sanitises
 * every rich text on write to a safe subset (apps/server/src/http/rich-text.ts: no scripts, styles,
 * SVG, frames or event handlers, links only http/https/mailto, images only from this app's media),
 * and its Content-Security-Policy allows no inline script besides. Never pass HTML here that did
 * not come from the server's blog or page answers.
 */
export function RichTextView(
  props: { html: string; emptyText?: string; label?: string } & Omit<TypographyProps, 'children'>,
) {
  const { html, emptyText, label, ...rest } = props;
  if (html.trim() === '') {
    return (
      <Text c="dimmed" fs="italic">
        {emptyText ?? 'No text yet'}
      </Text>
    );
  }
  return (
    <Typography {...rest}>
      <div
        role={label ? 'region' : undefined}
        aria-label={label}
        data-rich-text=""
        style={{ overflowWrap: 'anywhere' }}
        dangerouslySetInnerHTML={{ __html: html }}
      />
    </Typography>
  );
}
