import Box from '@mui/material/Box';
import List from '@mui/material/List';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import ListSubheader from '@mui/material/ListSubheader';
import { useTranslation } from 'react-i18next';
import type { FieldType } from '../../../../../core/forms/definition.js';
import { InfoDialog } from '../../../components/page/index.js';
import { FIELD_REGISTRY, type TypeGroup } from '../registry.js';

const GROUPS: TypeGroup[] = ['text', 'choice', 'other', 'layout'];

/** Chooses the type of a new field among those its place allows, by group, with the registry's icons. */
export function TypePicker({ types, onPick, onClose }: { types: FieldType[]; onPick: (type: FieldType) => void; onClose: () => void }) {
  const { t } = useTranslation();
  return (
    <InfoDialog title={t('forms.builder.chooseType')} onClose={onClose} closeLabel={t('common.cancel')} flush>
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' } }}>
        {GROUPS.map((group) => {
          const inGroup = types.filter((type) => FIELD_REGISTRY[type].group === group);
          if (inGroup.length === 0) return null;
          return (
            <List key={group} dense subheader={<ListSubheader disableSticky>{t(`forms.typeGroups.${group}`)}</ListSubheader>}>
              {inGroup.map((type) => {
                const spec = FIELD_REGISTRY[type];
                const Icon = spec.icon;
                return (
                  <ListItemButton key={type} onClick={() => onPick(type)}>
                    <ListItemIcon sx={{ minWidth: 36 }}>
                      <Icon fontSize="small" />
                    </ListItemIcon>
                    <ListItemText primary={t(spec.labelKey)} />
                  </ListItemButton>
                );
              })}
            </List>
          );
        })}
      </Box>
    </InfoDialog>
  );
}
