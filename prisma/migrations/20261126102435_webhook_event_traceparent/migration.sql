-- AlterTable
ALTER TABLE "WebhookEvent" ADD COLUMN "traceparent" TEXT;
