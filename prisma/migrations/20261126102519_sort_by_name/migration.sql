-- CreateIndex
CREATE INDEX "Plant_nameFolded_seq_idx" ON "Plant"("nameFolded", "seq");
