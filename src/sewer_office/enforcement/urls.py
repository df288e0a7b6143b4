from __future__ import annotations

from django.urls import URLPattern, path

from .views import documents, listing, opening, petitions, plan, schedules, violation

app_name = "enforcement"

urlpatterns: list[URLPattern] = [
    path("", listing.violation_list, name="list"),
    path("open/", opening.violation_open, name="open"),
    path("plan/", plan.plan_page, name="plan"),
    path("<int:pk>/", violation.violation_detail, name="detail"),
    path("<int:pk>/actions/<slug:name>/", violation.violation_action, name="action"),
    path("<int:pk>/costs/", violation.violation_cost, name="cost"),
    path("<int:pk>/judgment/", violation.violation_judgment, name="judgment"),
    path("<int:pk>/petitions/", petitions.petition_record, name="petition"),
    path("petitions/<int:pk>/decision/", petitions.petition_decide, name="petition-decision"),
    path("notices/<int:pk>.pdf", documents.notice_letter, name="notice-pdf"),
    path("notices/<int:pk>/certificate.pdf", documents.certificate_letter, name="certificate-pdf"),
    path("referrals/<int:pk>.pdf", documents.referral_letter, name="referral-pdf"),
    path("schedules/", schedules.schedule_list, name="schedules"),
    path("schedules/new/", schedules.schedule_new, name="schedule-new"),
    path("schedules/<int:pk>/", schedules.schedule_detail, name="schedule-detail"),
    path("schedules/<int:pk>/edit/", schedules.schedule_edit, name="schedule-edit"),
    path("milestones/<int:pk>/complete/", schedules.milestone_complete, name="milestone-complete"),
]
