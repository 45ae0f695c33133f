import FormatQuote from '@mui/icons-material/FormatQuote';
import LooksOne from '@mui/icons-material/LooksOne';
import LooksTwo from '@mui/icons-material/LooksTwo';
import Box from '@mui/material/Box';
import FormHelperText from '@mui/material/FormHelperText';
import Typography from '@mui/material/Typography';
import StarterKit from '@tiptap/starter-kit';
import {
  LinkBubbleMenu,
  LinkBubbleMenuHandler,
  MenuButton,
  MenuButtonBold,
  MenuButtonBulletedList,
  MenuButtonEditLink,
  MenuButtonItalic,
  MenuButtonOrderedList,
  MenuButtonRedo,
  MenuButtonUnderline,
  MenuButtonUndo,
  MenuControlsContainer,
  MenuDivider,
  RichTextEditor,
} from 'mui-tiptap';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { PlaceholderMenu } from './PlaceholderMenu.js';

/**
 * What the editor can make is what the server keeps (server/modules/templates/html.ts):
 * paragraphs, bold, italic, underline, two heading levels, lists, quotes and links.
 */
const extensions = [
  StarterKit.configure({
    heading: { levels: [2, 3] },
    code: false,
    codeBlock: false,
    horizontalRule: false,
    strike: false,
    link: { openOnClick: false, autolink: true, protocols: ['mailto'] },
  }),
  LinkBubbleMenuHandler,
];

/** A link's address as written: a placeholder stays as it is; anything else gets a scheme when it has none. */
const formatHref = (value: string) => {
  const v = value.trim();
  if (/^\{\{\s*\w+\s*\}\}$/.test(v) || /^(https?:|mailto:)/i.test(v) || !v) return v;
  return `https://${v}`;
};

interface Props {
  /** The HTML the editor starts with (read once). */
  initialHtml: string;
  onChange: (html: string) => void;
  label: string;
  error?: string;
}

/** The rich-text body of one language (mui-tiptap), with the placeholder picker in its toolbar inserting at the cursor. */
export default function TemplateBodyEditor({ initialHtml, onChange, label, error }: Props) {
  const { t } = useTranslation();
  const labelId = useId();
  const errorId = useId();
  return (
    <Box sx={{ mt: 2 }}>
      <Typography id={labelId} variant="subtitle2" component="p" sx={{ mb: 0.5 }}>
        {label}
      </Typography>
      <RichTextEditor
        // mui-tiptap's typings see @tiptap/core through its CommonJS types, ours through the ESM ones: the same classes at run time.
        extensions={extensions as never}
        content={initialHtml}
        immediatelyRender={false}
        onUpdate={({ editor }) => onChange(editor.getHTML())}
        editorProps={{ attributes: { 'aria-labelledby': labelId, ...(error ? { 'aria-invalid': 'true', 'aria-describedby': errorId } : {}) } }}
        renderControls={(editor) => (
          <MenuControlsContainer>
            <MenuButtonBold tooltipLabel={t('templates.format.bold')} />
            <MenuButtonItalic tooltipLabel={t('templates.format.italic')} />
            <MenuButtonUnderline tooltipLabel={t('templates.format.underline')} />
            <MenuDivider />
            <MenuButton
              tooltipLabel={t('templates.format.heading2')}
              IconComponent={LooksOne}
              selected={editor?.isActive('heading', { level: 2 }) ?? false}
              onClick={() => editor?.chain().focus().toggleHeading({ level: 2 }).run()}
            />
            <MenuButton
              tooltipLabel={t('templates.format.heading3')}
              IconComponent={LooksTwo}
              selected={editor?.isActive('heading', { level: 3 }) ?? false}
              onClick={() => editor?.chain().focus().toggleHeading({ level: 3 }).run()}
            />
            <MenuButtonBulletedList tooltipLabel={t('templates.format.bulletList')} />
            <MenuButtonOrderedList tooltipLabel={t('templates.format.orderedList')} />
            <MenuButton
              tooltipLabel={t('templates.format.blockquote')}
              IconComponent={FormatQuote}
              selected={editor?.isActive('blockquote') ?? false}
              onClick={() => editor?.chain().focus().toggleWrap('blockquote').run()}
            />
            <MenuButtonEditLink tooltipLabel={t('templates.format.link')} />
            <MenuDivider />
            <MenuButtonUndo tooltipLabel={t('templates.format.undo')} />
            <MenuButtonRedo tooltipLabel={t('templates.format.redo')} />
            <MenuDivider />
            <PlaceholderMenu onPick={(name) => editor?.chain().focus().insertContent(`{{${name}}}`).run()} />
          </MenuControlsContainer>
        )}
      >
        {() => (
          <LinkBubbleMenu
            formatHref={formatHref}
            labels={{
              editLinkTextInputLabel: t('templates.format.linkText'),
              editLinkHrefInputLabel: t('templates.format.linkPrompt'),
              editLinkCancelButtonLabel: t('common.cancel'),
              editLinkSaveButtonLabel: t('common.save'),
              editLinkAddTitle: t('templates.format.link'),
              editLinkEditTitle: t('templates.format.link'),
              viewLinkEditButtonLabel: t('common.edit'),
              viewLinkRemoveButtonLabel: t('common.delete'),
            }}
          />
        )}
      </RichTextEditor>
      {error && (
        <FormHelperText id={errorId} error>
          {error}
        </FormHelperText>
      )}
    </Box>
  );
}
