import {
  Alert,
  Anchor,
  Checkbox,
  ColorInput,
  Drawer,
  FileInput,
  Menu,
  Modal,
  Notification,
  NumberInput,
  PasswordInput,
  Select,
  Table,
  TextInput,
  Textarea,
  createTheme,
  darken,
  luminance,
  type CSSVariablesResolver,
  type MantineColorsTuple,
} from '@mantine/core';

// No asterisk after a required field's label: a label reads exactly as written ("Email", not "Email *"), for people
// using screen readers and for tests that find a field by its exact label; the field stays `required`.
const plainLabel = { defaultProps: { withAsterisk: false } };
// Mantine's close buttons are bare icons: without a name a screen reader announces only "button".
const namedClose = { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } };

export const theme = createTheme({
  primaryColor: 'indigo',
  // Every colour's darkest shade fills buttons and badges: white text on indigo, red, blue and teal 9 reads at 4.5:1
  // or better (shade 6, Mantine's default, gave 4.3:1 on the primary buttons and 1.9:1 on a yellow badge). The same
  // shade in both schemes, because autoContrast decides the text colour once, from the light scheme's shade.
  primaryShade: 9,
  // Black text on the fills too light for white (yellow, orange, green, lime at shade 9). 0.18 is the luminance where
  // white text falls below 4.5:1; Mantine's default (0.3) would leave white on them.
  autoContrast: true,
  luminanceThreshold: 0.18,
  // Dialogs, menus and toasts appear without sliding or fading for people who ask their system for less motion.
  respectReducedMotion: true,
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
    Modal: Modal.extend(namedClose),
    Drawer: Drawer.extend(namedClose),
    Notification: Notification.extend(namedClose),
    Alert: Alert.extend({ defaultProps: { closeButtonLabel: 'Close' } }),
    // A link inside a sentence must differ from the text around it by more than colour (WCAG 1.4.1): underlined.
    Anchor: Anchor.extend({ defaultProps: { underline: 'always' } }),
    // Mantine's placeholder that takes focus when a menu opens is a focusable role="presentation" element, which a
    // menu may not hold (axe: aria-required-children, critical). Without it the first item takes focus, as the ARIA
    // menu pattern has it.
    Menu: Menu.extend({ defaultProps: { withInitialFocusPlaceholder: false } }),
    // A table wider than the screen scrolls sideways inside its container: the container takes keyboard focus, so
    // the arrow keys scroll it (WCAG 2.1.1). A page that passes its own scrollAreaProps sets this itself.
    TableScrollContainer: Table.ScrollContainer.extend({ defaultProps: { scrollAreaProps: { viewportProps: { tabIndex: 0 } } } }),
  },
});

/** 4.5:1 (WCAG AA for body text) with a little room for rounding. */
const AA = 4.6;
const contrast = (a: string, b: string): number => {
  const [light, dark] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (light + 0.05) / (dark + 0.05);
};
/** The first candidate that reads at AA on every background, else the last (the one with the most contrast). */
const readable = (candidates: string[], backgrounds: string[]): string =>
  candidates.find((c) => backgrounds.every((b) => contrast(c, b) >= AA)) ?? candidates[candidates.length - 1]!;

const WHITE = '#ffffff';
const DARK_BODY = '#242424'; // dark.7, the dark scheme's page
const DARK_RAISED = '#2e2e2e'; // dark.6: cards, inputs and default buttons in the dark scheme

/**
 * A colour's text (`c="red"`, Menu items, error text), light variant (badges, alerts, NavLink) and outline, readable
 * in both schemes. Light: shade 9 on white, on the colour's own tint (shade 1) and on the tint a light or subtle
 * button turns under the pointer (shade 2: indigo 9 read at 4.1:1 there), darkened where that is not enough (teal,
 * green, orange and yellow 9 on their tints). Dark: shade 4, or a lighter one where 4 falls short on the page
 * or on raised surfaces (Mantine's dark outline, shade 5, gave 4.2:1 for indigo).
 */
function colourText(shades: MantineColorsTuple): { light: string; dark: string } {
  const light = readable([0, 0.1, 0.2, 0.3, 0.4, 0.5].map((by) => (by ? darken(shades[9], by) : shades[9])), [WHITE, shades[1], shades[2]]);
  const dark = readable([shades[4], shades[3], shades[2], shades[1], shades[0]], [DARK_BODY, DARK_RAISED]);
  return { light, dark };
}

/**
 * The colours Mantine derives, changed only where they fall below WCAG AA: dimmed text (3.3:1 in the light scheme,
 * 4.0:1 in the dark), error and success text, links in the dark scheme, and the colours' text and outlines.
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => {
  const light: Record<string, string> = {
    // Between gray.6 (3.3:1) and gray.7: 6:1 on white, 4.8:1 or better on every colour's tint.
    '--mantine-color-dimmed': '#5c636a',
  };
  const dark: Record<string, string> = {
    // Between dark.2 (4.0:1) and the text (dark.0): 6.9:1 on the page, 6:1 on cards and inputs, 4.9:1 on dark.5
    // (hovered rows, tinted boxes).
    '--mantine-color-dimmed': '#adadad',
  };
  for (const [name, shades] of Object.entries(t.colors)) {
    if (!shades) continue;
    const text = colourText(shades);
    for (const suffix of ['text', 'light-color', 'outline']) light[`--mantine-color-${name}-${suffix}`] = text.light;
    for (const suffix of ['text', 'outline']) dark[`--mantine-color-${name}-${suffix}`] = text.dark;
  }
  for (const vars of [light, dark]) {
    vars['--mantine-color-anchor'] = `var(--mantine-color-${t.primaryColor}-text)`;
    vars['--mantine-color-error'] = 'var(--mantine-color-red-text)';
    vars['--mantine-color-success'] = 'var(--mantine-color-teal-text)';
  }
  return { variables: {}, light, dark };
};
