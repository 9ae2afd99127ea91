import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import { Checkbox, ColorInput, FileInput, MantineProvider, NumberInput, PasswordInput, Select, TextInput, Textarea, createTheme } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { ApiError } from './api';
import { SessionProvider } from './session';

// No asterisk after a required field's label: a label reads exactly as written ("Email", not "Email *"), for people
// using screen readers and for tests that find a field by its exact label; the field stays `required`.
const plainLabel = { defaultProps: { withAsterisk: false } };
const theme = createTheme({
  primaryColor: 'indigo',
  defaultRadius: 'md',
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif',
  components: {
    TextInput: TextInput.extend(plainLabel),
    PasswordInput: PasswordInput.extend(plainLabel),
    NumberInput: NumberInput.extend(plainLabel),
    Select: Select.extend(plainLabel),
    FileInput: FileInput.extend(plainLabel),
    ColorInput: ColorInput.extend(plainLabel),
    Textarea: Textarea.extend(plainLabel),
    CheckboxGroup: Checkbox.Group.extend(plainLabel),
  },
});

const queries = new QueryClient({
  defaultOptions: {
    // A refusal (4xx) is an answer, not a hiccup: retrying it would only delay the message.
    queries: { retry: (count, error) => !(error instanceof ApiError && error.status >= 400 && error.status < 500) && count < 2, refetchOnWindowFocus: false },
  },
});

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <MantineProvider theme={theme} defaultColorScheme="light">
      <Notifications position="top-right" />
      <QueryClientProvider client={queries}>
        <SessionProvider>
          <App />
        </SessionProvider>
      </QueryClientProvider>
    </MantineProvider>
  </StrictMode>,
);
