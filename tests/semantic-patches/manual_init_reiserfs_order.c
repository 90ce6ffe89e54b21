#include <linux/tqueue.h>

struct super_block;

struct reiserfs_journal_commit_task {
  struct super_block *p_s_sb ;
  int jindex ;
  struct reiserfs_journal_commit_task *self ;
  struct tq_struct task ;
} ;

static void commit_task_func(void *arg) ;

/* journal.c: list, sync, routine, an unrelated statement, then data. */
static void setup_commit_task_arg(struct reiserfs_journal_commit_task *ct,
                                  struct super_block *p_s_sb,
				  int jindex) {
  ct->p_s_sb = p_s_sb ;
  ct->jindex = jindex ;
  INIT_LIST_HEAD(&ct->task.list) ;
  ct->task.sync = 0 ;
  ct->task.routine = commit_task_func ; 
  ct->self = ct ;
  ct->task.data = (void *)ct ;
}
