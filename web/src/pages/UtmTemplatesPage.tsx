import { PageTitle } from '../components/ui';

// Placeholder: being built.
export function UtmTemplatesPage() {
  return <PageTitle title="UTM templates" />;
}
