from __future__ import annotations

from django.urls import URLPattern, path

from . import plan_views, views

app_name = "enforcement"

urlpatterns: list[URLPattern] = [
    path("", views.violation_list, name="list"),
    path("open/", views.violation_open, name="open"),
    path("plan/", plan_views.plan_page, name="plan"),
    path("<int:pk>/", views.violation_detail, name="detail"),
    path("<int:pk>/actions/<slug:name>/", views.violation_action, name="action"),
    path("<int:pk>/costs/", views.violation_cost, name="cost"),
    path("<int:pk>/judgment/", views.violation_judgment, name="judgment"),
    path("notices/<int:pk>.pdf", views.notice_letter, name="notice-pdf"),
    path("notices/<int:pk>/certificate.pdf", views.certificate_letter, name="certificate-pdf"),
    path("referrals/<int:pk>.pdf", views.referral_letter, name="referral-pdf"),
    path("schedules/", views.schedule_list, name="schedules"),
    path("schedules/new/", views.schedule_new, name="schedule-new"),
    path("schedules/<int:pk>/", views.schedule_detail, name="schedule-detail"),
    path("schedules/<int:pk>/edit/", views.schedule_edit, name="schedule-edit"),
    path("milestones/<int:pk>/complete/", views.milestone_complete, name="milestone-complete"),
]
