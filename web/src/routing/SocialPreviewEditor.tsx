import { Box, Paper, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';

interface Preview {
  title: string;
  description: string;
  image: string;
}

const hostOf = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

/** Roughly what Slack or WhatsApp unfurl: the site, the title in bold, the description, then the image. */
function PreviewCard({ preview, shortUrl, destination }: { preview: Preview; shortUrl: string; destination: string }) {
  const image = /^https?:\/\//.test(preview.image.trim()) ? preview.image.trim() : '';
  return (
    <Paper withBorder radius="md" p="sm" role="figure" aria-label="Preview in a chat app" style={{ borderLeft: '4px solid var(--mantine-color-indigo-4)', overflow: 'hidden' }}>
      <Stack gap={4}>
        <Text size="xs" c="dimmed">
          {hostOf(shortUrl)}
        </Text>
        <Text fw={700} c="indigo" style={{ overflowWrap: 'anywhere' }}>
          {preview.title.trim() || `Page at ${hostOf(destination)}`}
        </Text>
        {preview.description.trim() && (
          <Text size="sm" lineClamp={3} style={{ overflowWrap: 'anywhere' }}>
            {preview.description.trim()}
          </Text>
        )}
        {image && (
          // The dashboard's CSP loads no image from elsewhere (src/http/security-headers.ts): the card names the image instead.
          <Box mt={4} p="md" bg="var(--mantine-color-default-hover)" style={{ borderRadius: 'var(--mantine-radius-sm)' }}>
            <Text size="xs" c="dimmed" ta="center" style={{ overflowWrap: 'anywhere' }}>
              Image from {hostOf(image)}
            </Text>
          </Box>
        )}
        {!preview.title.trim() && !preview.description.trim() && !image && (
          <Text size="xs" c="dimmed">
            No preview set: chat apps show what the destination page says about itself.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

/** What link-preview bots see instead of the destination's own tags; people are redirected as usual. */
export function SocialPreviewEditor({
  preview,
  shortUrl,
  destination,
  onChange,
}: {
  preview: Preview;
  shortUrl: string;
  destination: string;
  onChange: (fields: Partial<Preview>) => void;
}) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
      <Stack gap="xs">
        <TextInput label="Preview title" maxLength={200} value={preview.title} onChange={(e) => onChange({ title: e.currentTarget.value })} />
        <Textarea label="Preview description" maxLength={500} autosize minRows={2} maxRows={5} value={preview.description} onChange={(e) => onChange({ description: e.currentTarget.value })} />
        <TextInput label="Preview image URL" type="url" placeholder="https://" value={preview.image} onChange={(e) => onChange({ image: e.currentTarget.value })} />
      </Stack>
      <PreviewCard preview={preview} shortUrl={shortUrl} destination={destination} />
    </SimpleGrid>
  );
}
