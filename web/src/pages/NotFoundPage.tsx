import { Anchor, Text } from '@mantine/core';
import { Link } from 'react-router';
import { PageTitle } from '../components/ui';

export function NotFoundPage() {
  return (
    <>
      <PageTitle title="Page not found" />
      <Text>
        There is no dashboard page at this address. <Anchor component={Link} to="/links">Go to your links</Anchor>.
      </Text>
    </>
  );
}
