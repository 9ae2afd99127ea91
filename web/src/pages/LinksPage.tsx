import { PageTitle } from '../components/ui';

// Placeholder: being built.
export function LinksPage() {
  return <PageTitle title="Links" />;
}
