import { useTheme } from '@mui/material/styles';
import useMediaQuery from '@mui/material/useMediaQuery';

export type SizeClass = 'xs' | 'sm' | 'md' | 'lg' | 'xl';

/**
 * The spec's screen-size class, from the theme's breakpoints. `noSsr` measures
 * on the first render instead of flashing the phone layout first.
 */
export function useSizeClass(): SizeClass {
  const { breakpoints } = useTheme();
  const xl = useMediaQuery(breakpoints.up('xl'), { noSsr: true });
  const lg = useMediaQuery(breakpoints.up('lg'), { noSsr: true });
  const md = useMediaQuery(breakpoints.up('md'), { noSsr: true });
  const sm = useMediaQuery(breakpoints.up('sm'), { noSsr: true });
  if (xl) return 'xl';
  if (lg) return 'lg';
  if (md) return 'md';
  return sm ? 'sm' : 'xs';
}
