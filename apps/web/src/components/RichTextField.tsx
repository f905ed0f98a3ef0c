import '@mantine/tiptap/styles.css';
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { Input } from '@mantine/core';
import { Link, RichTextEditor } from '@mantine/tiptap';
import { useEditor } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';

const SCHEME = /^[a-z][a-z0-9+.-]*:/i;
const EMAIL = /^[^\s@/:]+@[^\s@/:]+\.[^\s@/:]+$/;
const DOMAIN = /^(\/\/)?[\w-]+(\.[\w-]+)+([/?#:]|$)/;

/**
 * A link address as the server keeps it (http, https or mailto, absolute): "example.com/x"
 * becomes "https://example.com/x" and "a@b.co" becomes "mailto:a@b.co"; anything else is left
 * as typed (the server drops a link it refuses and keeps its text).
 */
export function normaliseHref(href: string): string {
  const h = href.trim();
  if (h === '' || SCHEME.test(h)) return h;
  if (EMAIL.test(h)) return `mailto:${h}`;
  if (DOMAIN.test(h)) return `https://${h.replace(/^\/\//, '')}`;
  return h;
}

const ALLOWED_LINK = /^(https?:|mailto:)/i;

/**
 * Mantine's link (Ctrl/⌘+K opens the link editor), writing addresses the way the server keeps
 * them, and refusing the schemes it would drop.
 */
const SafeLink = Link.extend({
  addAttributes() {
    const parent = this.parent?.() ?? {};
    return {
      ...parent,
      href: {
        default: null,
        parseHTML: (element: HTMLElement) => element.getAttribute('href'),
        renderHTML: (attributes: { href?: string | null }) =>
          attributes.href ? { href: normaliseHref(attributes.href) } : {},
      },
    };
  },
}).configure({
  openOnClick: false,
  isAllowedUri: (url) => ALLOWED_LINK.test(normaliseHref(url)),
});

/**
 * What the server keeps of rich text (apps/server/src/http/rich-text.ts): paragraphs, headings
 * h1–h4, lists, blockquotes, code, rules and line breaks, bold, italic, underline, strike and
 * http/https/mailto links. Text alignment is kept by the server too, but the tiptap extension for
 * it is not part of this app's dependencies, so the editor offers no alignment.
 */
const EXTENSIONS = [
  StarterKit.configure({ heading: { levels: [1, 2, 3, 4] }, link: false }),
  SafeLink,
];

/**
 * The editor's HTML, or '' when it shows nothing (so "Required" can be checked before sending).
 * The empty paragraph the editor keeps after a final list or quote (to type after it) is left out.
 */
function htmlOf(editor: { isEmpty: boolean; getHTML: () => string }): string {
  return editor.isEmpty ? '' : editor.getHTML().replace(/(<p><\/p>)+$/, '');
}

/**
 * The one rich-text input (blog and page text): a controlled tiptap editor whose value is an
 * HTML string, with a toolbar limited to what the server keeps.
 */
export function RichTextField(props: {
  label: string;
  value: string;
  onChange: (html: string) => void;
  onBlur?: () => void;
  error?: string;
  description?: string;
  required?: boolean;
  disabled?: boolean;
  /** Wraps the editor, as Mantine's inputs take it (a counter under it). */
  inputContainer?: (editor: ReactNode) => ReactNode;
}) {
  const id = useId();
  const labelId = `${id}-label`;
  const errorId = `${id}-error`;
  const descriptionId = `${id}-description`;
  const { value, error, required, disabled } = props;

  const { onChange, onBlur } = props;
  // The HTML the editor starts with, and the last HTML it reported (to tell its own changes from
  // a value set from outside).
  const [initial] = useState(value);
  const reported = useRef(value);

  const editorProps = useMemo(() => {
    const describedBy = [props.description && descriptionId, error && errorId].filter(Boolean);
    const attributes: Record<string, string> = {
      role: 'textbox',
      'aria-multiline': 'true',
      'aria-labelledby': labelId,
      // The whole box takes a click, not only its first line.
      style: 'min-height: 12rem',
    };
    if (describedBy.length) attributes['aria-describedby'] = describedBy.join(' ');
    if (error) attributes['aria-invalid'] = 'true';
    if (required) attributes['aria-required'] = 'true';
    return { attributes };
  }, [labelId, errorId, descriptionId, props.description, error, required]);

  const editor = useEditor({
    extensions: EXTENSIONS,
    content: initial,
    editable: !disabled,
    shouldRerenderOnTransaction: false,
    editorProps,
    // useEditor calls the callbacks of the latest render.
    onUpdate: ({ editor }) => {
      const html = htmlOf(editor);
      reported.current = html;
      onChange(html);
    },
    onBlur: () => onBlur?.(),
  });

  // A value set from outside (a form reset, another row) replaces the editor's content.
  useEffect(() => {
    if (!editor || editor.isDestroyed || value === reported.current) return;
    reported.current = value;
    editor.commands.setContent(value, { emitUpdate: false });
  }, [editor, value]);

  useEffect(() => {
    if (editor && !editor.isDestroyed) editor.setEditable(!disabled, false);
  }, [editor, disabled]);

  return (
    <Input.Wrapper
      label={props.label}
      labelElement="div"
      labelProps={{ id: labelId, onClick: () => editor?.commands.focus() }}
      description={props.description}
      descriptionProps={{ id: descriptionId }}
      error={error}
      errorProps={{ id: errorId }}
      required={required}
      inputContainer={props.inputContainer}
    >
      <RichTextEditor
        editor={editor}
        mt={4}
        style={error ? { borderColor: 'var(--mantine-color-error)' } : undefined}
        labels={{ linkEditorInputPlaceholder: 'https://example.com' }}
      >
        <RichTextEditor.Toolbar aria-label={`${props.label} formatting`} role="toolbar">
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Bold />
            <RichTextEditor.Italic />
            <RichTextEditor.Underline />
            <RichTextEditor.Strikethrough />
            <RichTextEditor.Code />
            <RichTextEditor.ClearFormatting />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.H1 />
            <RichTextEditor.H2 />
            <RichTextEditor.H3 />
            <RichTextEditor.H4 />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.BulletList />
            <RichTextEditor.OrderedList />
            <RichTextEditor.Blockquote />
            <RichTextEditor.Hr />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Link />
            <RichTextEditor.Unlink />
          </RichTextEditor.ControlsGroup>
          <RichTextEditor.ControlsGroup>
            <RichTextEditor.Undo />
            <RichTextEditor.Redo />
          </RichTextEditor.ControlsGroup>
        </RichTextEditor.Toolbar>
        <RichTextEditor.Content style={{ maxHeight: 'min(50vh, 480px)', overflowY: 'auto' }} />
      </RichTextEditor>
    </Input.Wrapper>
  );
}
