import { useState } from 'react';
import Box from '@mui/material/Box';
import Paper from '@mui/material/Paper';
import Typography from '@mui/material/Typography';
import { useMediaProcessing } from '../../../components/media/media-status';
import { MediaUpload, type Uploaded } from '../../../components/media/media-upload';
import { MediaView } from '../../../components/media/media-view';

/** Upload Media: one image or video, then the feed tile and (images) the full-size viewer. */
export default function UploadPage() {
  const [uploaded, setUploaded] = useState<Uploaded | null>(null);
  const processing = useMediaProcessing(uploaded?.key);
  return (
    <Box
      sx={{
        maxWidth: 720,
        mx: 'auto',
        px: 2,
        py: 4,
        display: 'flex',
        flexDirection: 'column',
        gap: 3,
      }}
    >
      <Typography variant="h1">Upload Media</Typography>
      <Paper sx={{ p: 3 }}>
        <MediaUpload accept="any" label="Upload Media" onUploaded={setUploaded} />
      </Paper>
      {uploaded && (
        <Paper
          sx={{ p: 3, display: 'flex', flexDirection: 'column', gap: 2 }}
          data-testid="uploaded"
        >
          <Typography variant="h2" sx={{ fontSize: 20 }}>
            Uploaded
          </Typography>
          <Typography variant="body2" color="text.secondary" sx={{ wordBreak: 'break-all' }}>
            Key: <span data-testid="uploaded-key">{uploaded.key}</span>
          </Typography>
          <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2 }}>
            <Box>
              <Typography variant="body2" sx={{ mb: 1 }}>
                In the feed
              </Typography>
              <MediaView
                variant="tile"
                mediaKey={uploaded.key}
                alt="Uploaded media in the feed"
                votes={0}
                eager
                processing={processing}
              />
            </Box>
            {uploaded.kind === 'image' && (
              <Box>
                <Typography variant="body2" sx={{ mb: 1 }}>
                  Full size
                </Typography>
                <Box sx={{ position: 'relative', aspectRatio: '1 / 1' }}>
                  <MediaView
                    variant="fill"
                    mediaKey={uploaded.key}
                    alt="Uploaded image, full size"
                    fit="contain"
                  />
                </Box>
              </Box>
            )}
          </Box>
        </Paper>
      )}
    </Box>
  );
}
