-- CreateIndex
CREATE INDEX "Plant_createdAt_idx" ON "Plant"("createdAt");
