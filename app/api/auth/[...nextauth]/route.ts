import { handleAuthRequest } from '@/lib/http/next-auth-route';

export { handleAuthRequest as GET, handleAuthRequest as POST };
