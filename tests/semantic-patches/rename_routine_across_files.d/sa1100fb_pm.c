/* Power management calls the helper; no task-queue name of its own. */
struct sa1100fb_info;

extern void sa1100fb_schedule_task(struct sa1100fb_info *fbi, int state);

void sa1100fb_pm_suspend(struct sa1100fb_info *fbi)
{
	sa1100fb_schedule_task(fbi, 3);
}
