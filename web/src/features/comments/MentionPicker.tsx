import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemText from '@mui/material/ListItemText';
import Paper from '@mui/material/Paper';
import Popper from '@mui/material/Popper';
import type { Mentionable } from './api.js';

/** The word being typed after an @ at the caret: where the @ is and what follows it. */
export interface MentionQuery {
  start: number;
  query: string;
}

/** An @ at the start of the text or after a space, followed by the caret with no space between. */
export function mentionAt(text: string, caret: number): MentionQuery | null {
  const match = /(^|\s)@([^\s@]{0,40})$/.exec(text.slice(0, caret));
  if (!match) return null;
  return { start: caret - match[2]!.length - 1, query: match[2]! };
}

/** `text` with the @word at `mention` replaced by @Name and a space; also where the caret goes. */
export function insertMention(text: string, mention: MentionQuery, name: string): { text: string; caret: number } {
  const inserted = `@${name} `;
  const end = mention.start + 1 + mention.query.length;
  const rest = text.slice(end).replace(/^ /, '');
  return { text: text.slice(0, mention.start) + inserted + rest, caret: mention.start + inserted.length };
}

interface MentionPickerProps {
  id: string;
  anchor: HTMLElement | null;
  options: readonly Mentionable[];
  /** The highlighted option (moved with the arrows, picked with Enter). */
  active: number;
  onPick: (person: Mentionable) => void;
}

/** The staff offered for the @word being typed, under the comment field. Focus stays in the field. */
export function MentionPicker({ id, anchor, options, active, onPick }: MentionPickerProps) {
  return (
    <Popper open={!!anchor && options.length > 0} anchorEl={anchor} placement="bottom-start" sx={{ zIndex: (theme) => theme.zIndex.modal + 1 }}>
      <Paper elevation={4} sx={{ maxHeight: 240, overflowY: 'auto', minWidth: 240 }}>
        <List id={id} role="listbox" dense disablePadding>
          {options.map((person, index) => (
            <ListItemButton
              key={person.id}
              id={`${id}-${person.id}`}
              role="option"
              aria-selected={index === active}
              selected={index === active}
              // The field keeps the focus (and the caret) while a name is picked with the mouse.
              onMouseDown={(event) => event.preventDefault()}
              onClick={() => onPick(person)}
            >
              <ListItemText primary={person.name} secondary={person.email} />
            </ListItemButton>
          ))}
        </List>
      </Paper>
    </Popper>
  );
}
