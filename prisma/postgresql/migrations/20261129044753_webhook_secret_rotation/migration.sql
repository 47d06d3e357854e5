-- AlterTable
ALTER TABLE "WebhookEndpoint" ADD COLUMN     "previousSecret" TEXT,
ADD COLUMN     "previousSecretExpiresAt" TIMESTAMP(3);
