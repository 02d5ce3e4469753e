import { type Kysely, sql } from 'kysely';

/**
 * What an import has already written, so that running the same import again changes nothing.
 * One row per imported post or comment: `source` names the export it came from (its format and,
 * where the export says, its site) and `source_id` the item inside it. The row goes with the blog
 * or comment it made: an imported post its owner deleted is imported again by the next run.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('imported_items')
    .addColumn('source', 'text', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('post', 'comment')`))
    .addColumn('source_id', 'text', (col) => col.notNull())
    .addColumn('blog_id', 'uuid', (col) => col.references('blogs.id').onDelete('cascade'))
    .addColumn('comment_id', 'uuid', (col) => col.references('comments.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('imported_items_pkey', ['source', 'kind', 'source_id'])
    .addCheckConstraint('imported_items_target', sql`(kind = 'post' and blog_id is not null) or (kind = 'comment' and comment_id is not null)`)
    .execute();
  await db.schema.createIndex('imported_items_blog_id_idx').on('imported_items').column('blog_id').execute();
  await db.schema.createIndex('imported_items_comment_id_idx').on('imported_items').column('comment_id').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('imported_items').execute();
}
