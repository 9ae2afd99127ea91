import { Button, ColorInput, Image, NumberInput, Paper, SimpleGrid, Stack, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconDownload } from '@tabler/icons-react';
import { useState } from 'react';
import { ErrorNotice } from '../components/ui';
import { fetchQrPng, qrUrl } from './api';

const HEX = /^#[0-9a-fA-F]{6}$/;

/** The link's QR code with its colours, size and margin, and a PNG download of exactly what is shown. */
export function QrPanel({ shortPath }: { shortPath: string }) {
  const [color, setColor] = useState('#000000');
  const [bgColor, setBgColor] = useState('#ffffff');
  const [size, setSize] = useState<number | string>(300);
  const [margin, setMargin] = useState<number | string>(4);
  const [downloadError, setDownloadError] = useState<unknown>(null);
  const options = {
    color: HEX.test(color) ? color : '#000000',
    bgColor: HEX.test(bgColor) ? bgColor : '#ffffff',
    size: typeof size === 'number' ? Math.min(1000, Math.max(100, size)) : 300,
    margin: typeof margin === 'number' ? Math.min(10, Math.max(0, margin)) : 4,
  };
  const [shown] = useDebouncedValue(options, 300);
  const src = qrUrl(shortPath, shown);

  const download = async () => {
    setDownloadError(null);
    try {
      const blob = await fetchQrPng(shortPath, options);
      const href = URL.createObjectURL(blob);
      const anchor = document.createElement('a');
      anchor.href = href;
      anchor.download = `qr-${shortPath.replace('/', '-')}.png`;
      anchor.click();
      setTimeout(() => URL.revokeObjectURL(href), 1000);
    } catch (error) {
      setDownloadError(error);
    }
  };

  return (
    <Paper withBorder p="md" radius="md">
      <Title order={2} size="h4" mb="sm">
        QR code
      </Title>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="md">
        <Image src={src} alt={`QR code for ${shortPath}`} w="100%" maw={260} fit="contain" style={{ imageRendering: 'pixelated' }} />
        <Stack gap="xs">
          <ColorInput withEyeDropper={false} label="Colour" value={color} onChange={setColor} format="hex" />
          <ColorInput withEyeDropper={false} label="Background" value={bgColor} onChange={setBgColor} format="hex" />
          <NumberInput label="Size (pixels)" min={100} max={1000} step={50} value={size} onChange={setSize} />
          <NumberInput label="Margin (modules)" min={0} max={10} value={margin} onChange={setMargin} />
          <Button leftSection={<IconDownload size={16} aria-hidden />} onClick={download}>
            Download PNG
          </Button>
          <ErrorNotice error={downloadError} title="Download failed" />
        </Stack>
      </SimpleGrid>
    </Paper>
  );
}
