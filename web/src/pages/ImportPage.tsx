import { PageTitle } from '../components/ui';

// Placeholder: being built.
export function ImportPage() {
  return <PageTitle title="Bulk import" />;
}
