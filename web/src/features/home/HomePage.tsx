import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardActionArea from '@mui/material/CardActionArea';
import CardContent from '@mui/material/CardContent';
import Typography from '@mui/material/Typography';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { MenuEntry, MenuLink } from '../../../../core/menu.js';
import { useIsImplemented } from '../../app/menu/implementedRoutes.js';
import { useMenuEntries } from '../../app/menu/useMenuEntries.js';
import { useCan, useSessionUser } from '../../app/session/session.js';
import { MyPartiesCard } from '../parties/MyPartiesCard.js';
import { DashboardTiles } from '../reports/DashboardTiles.js';

/** A module to show on the home page, with the menu group it sits in. */
interface ModuleCard {
  link: MenuLink;
  groupKey?: string;
}

function toCards(entries: readonly MenuEntry[]): ModuleCard[] {
  return entries.flatMap((entry) =>
    entry.kind === 'link' ? [{ link: entry }] : entry.children.map((link) => ({ link, groupKey: entry.labelKey })),
  );
}

export function HomePage() {
  const { t } = useTranslation();
  const user = useSessionUser();
  const cards = toCards(useMenuEntries());
  // Staff who work on tasks see their figures first; applicants keep the list of their modules.
  const staff = useCan()('wf_tareas', 'show');
  return (
    <>
      <Typography variant="h4" component="h1" gutterBottom sx={{ overflowWrap: 'anywhere' }}>
        {t('home.welcome', { name: user.name })}
      </Typography>
      {staff && <DashboardTiles />}
      {/* A landlord or other party of some application: the way to their side. */}
      <MyPartiesCard />
      <Typography variant="h6" component="h2" gutterBottom>
        {t('home.modules')}
      </Typography>
      {cards.length === 0 ? (
        <Typography>{t('home.empty')}</Typography>
      ) : (
        <Box
          component="ul"
          sx={{
            listStyle: 'none',
            p: 0,
            m: 0,
            display: 'grid',
            gap: 2,
            gridTemplateColumns: 'repeat(auto-fill, minmax(min(100%, 200px), 1fr))',
          }}
        >
          {cards.map((card) => (
            <li key={card.link.id}>
              <ModuleCardView card={card} />
            </li>
          ))}
        </Box>
      )}
    </>
  );
}

function ModuleCardView({ card }: { card: ModuleCard }) {
  const { t } = useTranslation();
  const implemented = useIsImplemented()(card.link.path);
  const content = (
    <CardContent>
      {card.groupKey && (
        <Typography variant="overline" component="p" color="text.secondary">
          {t(card.groupKey)}
        </Typography>
      )}
      <Typography variant="subtitle1" component="p">
        {t(card.link.labelKey)}
      </Typography>
      {!implemented && (
        <Typography variant="body2" color="text.secondary">
          {t('home.notAvailable')}
        </Typography>
      )}
    </CardContent>
  );
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      {implemented ? (
        <CardActionArea component={Link} to={card.link.path} sx={{ height: '100%' }}>
          {content}
        </CardActionArea>
      ) : (
        content
      )}
    </Card>
  );
}

export default HomePage;
