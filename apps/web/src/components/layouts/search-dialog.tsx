import SearchIcon from '@mui/icons-material/Search';
import Dialog from '@mui/material/Dialog';
import DialogContent from '@mui/material/DialogContent';
import InputAdornment from '@mui/material/InputAdornment';
import TextField from '@mui/material/TextField';
import { useState } from 'react';
import { useNavigate } from 'react-router';

/** SPEC.md §2: Enter goes to /?q= plus the typed text and closes the box. */
export default function SearchDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const [text, setText] = useState('');
  const navigate = useNavigate();
  return (
    <Dialog
      open={open}
      onClose={onClose}
      fullWidth
      maxWidth="sm"
      aria-label="Search"
      slotProps={{ paper: { sx: { alignSelf: 'flex-start', mt: 8 } } }}
    >
      <DialogContent>
        <TextField
          autoFocus
          label="Search bounties"
          value={text}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Enter') {
              e.preventDefault();
              navigate(`/?q=${encodeURIComponent(text)}`);
              onClose();
            }
          }}
          slotProps={{
            htmlInput: { enterKeyHint: 'search', 'data-testid': 'search-input' },
            input: {
              startAdornment: (
                <InputAdornment position="start">
                  <SearchIcon aria-hidden="true" />
                </InputAdornment>
              ),
            },
          }}
        />
      </DialogContent>
    </Dialog>
  );
}
