import HomeWorkOutlined from '@mui/icons-material/HomeWorkOutlined';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useIsAnyParty } from './api.js';

/**
 * The home page's way to "My tenants' applications", for a user who is a
 * party of at least one case (a landlord); nothing for anyone else. The side
 * menu is built from permission targets, which a party has none of.
 */
export function MyPartiesCard() {
  const { t } = useTranslation();
  const count = useIsAnyParty().data ?? 0;
  if (count === 0) return null;
  return (
    <Card variant="outlined" sx={{ mb: 3, borderColor: 'primary.main' }}>
      <CardActionArea component={Link} to="/partes">
        <CardContent sx={{ display: 'flex', alignItems: 'center', gap: 2 }}>
          <HomeWorkOutlined color="primary" sx={{ fontSize: 36, flexShrink: 0 }} aria-hidden />
          <Box sx={{ minWidth: 0 }}>
            <Typography variant="subtitle1" component="p" sx={{ fontWeight: 600 }}>
              {t('parties.mine.title')}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('parties.mine.card', { count })}
            </Typography>
          </Box>
        </CardContent>
      </CardActionArea>
    </Card>
  );
}
