import Box from '@mui/material/Box';
import Typography from '@mui/material/Typography';

/** SPEC.md §2: /hunters (and /creators) is a placeholder showing the text 'Hunters'. */
export default function HuntersPage() {
  return (
    <Box sx={{ maxWidth: 960, mx: 'auto', px: 2, py: 4 }}>
      <Typography variant="h1">Hunters</Typography>
    </Box>
  );
}
